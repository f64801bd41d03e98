/**
 * `Idempotency-Key` handling: the same key with the same method, path and body replays the first
 * response; the same key with anything else is `409 idempotency_key_reused`. Keys are scoped to
 * the API key that sent them and kept 24 hours. A second request with a key whose first request
 * is still being processed waits for it, then replays it.
 */
// @ts-nocheck

import { createHash } from "node:crypto";
import { HttpError } from "../http/errors.js";
import type { Clock } from "../clock.js";
import { idempotencyMapKey, type IdempotencyRecord, type Store } from "../state/store.js";

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

export type IdempotencyOutcome =
  | { kind: "replay"; record: IdempotencyRecord }
  | {
      kind: "first";
      /** Stores the response unless it is one a retry should run again (5xx, 429). */
      record(status: number, response: string): void;
      /** Lets waiting duplicates proceed; call once the response is durable, whatever happened. */
      release(): void;
    };

export class Idempotency {
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async begin(keyId: string, idempotencyKey: string, method: string, target: string, body: unknown): Promise<IdempotencyOutcome> {
    const mapKey = idempotencyMapKey(keyId, idempotencyKey);
    for (let pending = this.inFlight.get(mapKey); pending !== undefined; pending = this.inFlight.get(mapKey)) {
      await pending;
    }
    const bodyHash = hashCanonicalJson(body);
    const existing = this.lookup(mapKey);
    if (existing !== undefined) {
      if (existing.method !== method || existing.target !== target || existing.body_hash !== bodyHash) {
        throw new HttpError(
          409,
          "idempotency_key_reused",
          "This Idempotency-Key was already used with a different method, path or body",
          { idempotency_key: idempotencyKey },
        );
      }
      return { kind: "replay", record: existing };
    }
    let release!: () => void;
    this.inFlight.set(mapKey, new Promise<void>((resolve) => (release = resolve)));
    return {
      kind: "first",
      record: (status, response) => {
        if (status >= 500 || status === 429) return;
        this.store.idempotency.set(mapKey, {
          key_id: keyId,
          idempotency_key: idempotencyKey,
          method,
          target,
          body_hash: bodyHash,
          status,
          response,
          created_at_ms: this.clock.now(),
        });
      },
      release: () => {
        this.inFlight.delete(mapKey);
        release();
      },
    };
  }

  /** Drops records older than the retention period. */
  purgeExpired(): void {
    const oldest = this.clock.now() - IDEMPOTENCY_RETENTION_MS;
    for (const [mapKey, record] of this.store.idempotency) {
      if (record.created_at_ms < oldest) this.store.idempotency.delete(mapKey);
    }
  }

  private lookup(mapKey: string): IdempotencyRecord | undefined {
    const record = this.store.idempotency.get(mapKey);
    if (record === undefined) return undefined;
    if (record.created_at_ms < this.clock.now() - IDEMPOTENCY_RETENTION_MS) {
      this.store.idempotency.delete(mapKey);
      return undefined;
    }
    return record;
  }
}

/** Bodies equal as JSON values hash equal, whatever their key order or whitespace. */
export function hashCanonicalJson(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}
