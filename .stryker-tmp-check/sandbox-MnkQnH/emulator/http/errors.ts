/**
 * The emulator's error type: everything needed to write the error envelope of spec 2.3.
 * Handlers throw it; the request pipeline turns it into a response.
 */
// @ts-nocheck

export type ErrorDetails = Record<string, unknown>;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetails,
    /** Extra response headers, e.g. `Retry-After` or `Allow`. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export function invalidParameter(name: string, rule: string): HttpError {
  return new HttpError(400, "invalid_parameter", `Invalid parameter ${name}: ${rule}`, { [name]: rule });
}

export function notFound(kindLabel: string, id: string): HttpError {
  return new HttpError(404, "not_found", `No ${kindLabel} with id ${id}`, { id });
}

export function conflict(message: string, details?: ErrorDetails): HttpError {
  return new HttpError(409, "conflict", message, details);
}

/** `details` holds one entry per bad field, keyed by its snake_case path (`regions[1]`, `steps[0].delay_minutes`). */
export function validationFailed(details: Record<string, string>): HttpError {
  const fields = Object.keys(details);
  return new HttpError(422, "validation_failed", `Invalid request: ${fields.join(", ")}`, details);
}
