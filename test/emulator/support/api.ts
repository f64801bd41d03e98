/** A minimal HTTP client for the contract tests: every answer, whatever its status, as data. */
// The tests read JSON answers field by field; `any` keeps those reads short.
export type Json = any;

export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or `undefined` for an empty body. */
  body: Json;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is instead of `body`, to test malformed JSON. */
  rawBody?: string;
  headers?: Record<string, string>;
  /** `null` sends no Authorization header. */
  key?: string | null;
}

export interface Api {
  baseUrl: string;
  key: string;
  request(method: string, path: string, options?: RequestOptions): Promise<Answer>;
  get(path: string, options?: RequestOptions): Promise<Answer>;
  post(path: string, body?: unknown, options?: RequestOptions): Promise<Answer>;
  put(path: string, body?: unknown, options?: RequestOptions): Promise<Answer>;
  patch(path: string, body?: unknown, options?: RequestOptions): Promise<Answer>;
  delete(path: string, options?: RequestOptions): Promise<Answer>;
  /** The same API with another key. */
  withKey(key: string): Api;
}

/** The contract tests' client on an emulator, with its full-access key. */
export function contractClientOn(emulator: { baseUrl: string; apiKey: string }): Api {
  return apiClient(emulator.baseUrl, emulator.apiKey);
}

export function apiClient(baseUrl: string, key: string): Api {
  async function request(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    const bearer = options.key === undefined ? key : options.key;
    if (bearer !== null) headers["authorization"] = `Bearer ${bearer}`;
    const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (payload !== undefined) headers["content-type"] ??= "application/json";
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body: payload });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text), text };
  }
  return {
    baseUrl,
    key,
    request,
    get: (path, options) => request("GET", path, options),
    post: (path, body, options) => request("POST", path, { ...options, body }),
    put: (path, body, options) => request("PUT", path, { ...options, body }),
    patch: (path, body, options) => request("PATCH", path, { ...options, body }),
    delete: (path, options) => request("DELETE", path, options),
    withKey: (other) => apiClient(baseUrl, other),
  };
}

/** The `data` of a success answer; fails with the whole answer otherwise, so a test shows why. */
export function dataOf(answer: Answer, status?: number): Json {
  if ((status !== undefined && answer.status !== status) || answer.status >= 300) {
    throw new Error(`unexpected answer ${answer.status}: ${answer.text}`);
  }
  return answer.body?.data;
}
