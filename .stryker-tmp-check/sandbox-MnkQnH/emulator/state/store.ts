/**
 * All state of the emulator: the objects of every kind, the API keys, and the idempotency records.
 * Handlers change it synchronously in memory; `commit()` then makes the change durable when the
 * emulator runs with a data file (and costs nothing without one).
 */
// @ts-nocheck

import { Collection, StoredRecord, type JsonObject } from "./collection.js";
import { DurableFile } from "./durable-file.js";

/** Every collection and the fields it is indexed by. */
const COLLECTIONS = {
  monitors: ["client_id"],
  heartbeats: ["client_id"],
  heartbeat_groups: ["client_id"],
  incidents: ["client_id", "monitor_id", "heartbeat_id"],
  escalation_policies: ["client_id"],
  notification_channels: ["client_id"],
  webhook_subscriptions: ["client_id"],
  deliveries: ["subscription_id"],
  clients: [],
  client_templates: [],
  share_links: ["client_id"],
  teams: ["client_id"],
  pings: ["heartbeat_id"],
  results: ["monitor_id"],
} as const satisfies Record<string, readonly string[]>;

export type CollectionName = keyof typeof COLLECTIONS;

export interface ApiKeyRecord {
  id: string;
  /** The bearer token. Never logged; the request log shows `prefix` only. */
  key: string;
  scopes: string[];
  label: string | null;
  created_at: string;
}

export interface IdempotencyRecord {
  key_id: string;
  idempotency_key: string;
  method: string;
  /** Path and query, relative to the base URL. */
  target: string;
  /** SHA-256 of the canonical JSON of the request body. */
  body_hash: string;
  status: number;
  /** The exact response body sent the first time (empty for 204). */
  response: string;
  created_at_ms: number;
}

interface PersistedState {
  format: 1;
  next_seq: number;
  default_key: string;
  api_keys: ApiKeyRecord[];
  idempotency: IdempotencyRecord[];
  collections: Record<string, { seq: number; doc: JsonObject; internal: JsonObject }[]>;
}

const STATE_FORMAT = 1;

export class Store {
  private nextSeq = 1;
  private collectionsByName = createCollections();
  readonly apiKeys = new Map<string, ApiKeyRecord>();
  /** Keyed by `idempotencyMapKey`. */
  readonly idempotency = new Map<string, IdempotencyRecord>();
  /** Rebuild lookups derived from the state (e.g. ping tokens) after it is replaced. */
  private readonly reloadListeners: Array<() => void> = [];

  private constructor(
    private defaultKeyRecord: ApiKeyRecord,
    private readonly file: DurableFile | undefined,
  ) {
    this.apiKeys.set(defaultKeyRecord.key, defaultKeyRecord);
  }

  /**
   * Loads the data file when there is one. The default key is, in order of precedence: the one
   * asked for, the one saved in the data file, a new random one.
   */
  static async open(options: {
    dataFile: string | undefined;
    requestedDefaultKey: string | undefined;
    newDefaultKey: () => ApiKeyRecord;
    fullAccess: (key: string) => ApiKeyRecord;
  }): Promise<Store> {
    let store: Store | undefined;
    const file = options.dataFile === undefined ? undefined : new DurableFile(options.dataFile, () => store!.serialize());
    const saved = file === undefined ? undefined : await file.read();
    const persisted = saved === undefined ? undefined : parsePersistedState(saved, options.dataFile!);
    const savedDefault = persisted?.api_keys.find((record) => record.key === persisted.default_key);
    const defaultKey =
      options.requestedDefaultKey !== undefined
        ? options.fullAccess(options.requestedDefaultKey)
        : (savedDefault ?? options.newDefaultKey());
    store = new Store(defaultKey, file);
    if (persisted !== undefined) store.restore(persisted);
    return store;
  }

  get defaultKey(): ApiKeyRecord {
    return this.defaultKeyRecord;
  }

  get persistent(): boolean {
    return this.file !== undefined;
  }

  collection(name: CollectionName): Collection {
    return this.collectionsByName[name];
  }

  insert(name: CollectionName, doc: JsonObject, internal: JsonObject = {}): StoredRecord {
    const record = new StoredRecord(this.nextSeq++, doc, internal);
    this.collectionsByName[name].insert(record);
    return record;
  }

  /** Runs `listener` now and again whenever the state is replaced (reset). */
  onReload(listener: () => void): void {
    this.reloadListeners.push(listener);
    listener();
  }

  /**
   * Makes every change made so far durable. Returns `undefined` (nothing to wait for) when the
   * state lives in memory only, so the hot path does not allocate a promise.
   */
  commit(): Promise<void> | undefined {
    return this.file?.flush();
  }

  /** Back to a fresh start: no objects, no idempotency records, only the default key. */
  reset(): void {
    this.collectionsByName = createCollections();
    this.idempotency.clear();
    this.apiKeys.clear();
    this.apiKeys.set(this.defaultKeyRecord.key, this.defaultKeyRecord);
    for (const listener of this.reloadListeners) listener();
  }

  /** The state as JSON; unchanged records reuse their cached serialization. */
  private serialize(): string {
    const collections = (Object.keys(COLLECTIONS) as CollectionName[])
      .map((name) => `${JSON.stringify(name)}:[${this.collectionsByName[name].all().map((record) => record.serialize()).join(",")}]`)
      .join(",");
    const header = JSON.stringify({
      format: STATE_FORMAT,
      next_seq: this.nextSeq,
      default_key: this.defaultKeyRecord.key,
      api_keys: [...this.apiKeys.values()],
      idempotency: [...this.idempotency.values()],
    });
    return `${header.slice(0, -1)},"collections":{${collections}}}`;
  }

  private restore(persisted: PersistedState): void {
    this.nextSeq = persisted.next_seq;
    for (const record of persisted.api_keys) {
      if (record.key !== this.defaultKeyRecord.key) this.apiKeys.set(record.key, record);
    }
    for (const record of persisted.idempotency) {
      this.idempotency.set(idempotencyMapKey(record.key_id, record.idempotency_key), record);
    }
    for (const name of Object.keys(COLLECTIONS) as CollectionName[]) {
      for (const record of persisted.collections[name] ?? []) {
        this.collectionsByName[name].insert(new StoredRecord(record.seq, record.doc, record.internal));
      }
    }
  }
}

export function idempotencyMapKey(keyId: string, idempotencyKey: string): string {
  return `${keyId}\u0000${idempotencyKey}`;
}

function createCollections(): Record<CollectionName, Collection> {
  const entries = Object.entries(COLLECTIONS).map(([name, fields]) => [name, new Collection(fields)]);
  return Object.fromEntries(entries) as Record<CollectionName, Collection>;
}

function parsePersistedState(text: string, path: string): PersistedState {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`The data file ${path} is not valid JSON; refusing to overwrite it`, { cause: error });
  }
  const state = value as Partial<PersistedState> | null;
  if (state === null || typeof state !== "object" || state.format !== STATE_FORMAT) {
    throw new Error(`The data file ${path} is not an emulator state file (format ${STATE_FORMAT}); refusing to overwrite it`);
  }
  return state as PersistedState;
}
