/**
 * One kind of object held in memory: a map by id for O(1) reads, and arrays kept in insertion
 * order (the sequence number grows with every insert) so a page of a list costs O(page), not a
 * scan of the collection. Secondary indexes give the same ordered view of the objects sharing a
 * field value (e.g. every monitor of one client, every result of one monitor); indexed fields
 * must not change after insert.
 */
// @ts-nocheck

export type JsonObject = { [key: string]: unknown };

/**
 * One stored object. `doc` and `internal` are frozen: a change replaces them (`record.doc = {
 * ...record.doc, status }`), which drops the cached serialization, so a snapshot re-serializes
 * only the records that changed since the last one.
 */
export class StoredRecord {
  /** Insertion order; unique across the whole store. */
  readonly seq: number;
  private currentDoc: Readonly<JsonObject>;
  private currentInternal: Readonly<JsonObject>;
  private serialized: string | undefined;

  constructor(seq: number, doc: JsonObject, internal: JsonObject = {}) {
    this.seq = seq;
    this.currentDoc = Object.freeze(doc);
    this.currentInternal = Object.freeze(internal);
  }

  /** The API object, exactly as responses show it (snake_case, server fields included). */
  get doc(): Readonly<JsonObject> {
    return this.currentDoc;
  }

  set doc(value: JsonObject) {
    this.currentDoc = Object.freeze(value);
    this.serialized = undefined;
  }

  /** Server-side data that is not part of the API object: write-only secrets, attachments. */
  get internal(): Readonly<JsonObject> {
    return this.currentInternal;
  }

  set internal(value: JsonObject) {
    this.currentInternal = Object.freeze(value);
    this.serialized = undefined;
  }

  /** `{"seq":…,"doc":…,"internal":…}`, computed once per change. */
  serialize(): string {
    this.serialized ??= JSON.stringify({ seq: this.seq, doc: this.currentDoc, internal: this.currentInternal });
    return this.serialized;
  }
}

export class Collection {
  private readonly byId = new Map<string, StoredRecord>();
  private readonly ordered: StoredRecord[] = [];
  private readonly indexes = new Map<string, Map<unknown, StoredRecord[]>>();

  constructor(indexedFields: readonly string[] = []) {
    for (const field of indexedFields) this.indexes.set(field, new Map());
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: string): StoredRecord | undefined {
    return this.byId.get(id);
  }

  /** Records must arrive in increasing `seq` order, which the store guarantees. */
  insert(record: StoredRecord): void {
    this.byId.set(String(record.doc["id"]), record);
    this.ordered.push(record);
    for (const [field, index] of this.indexes) {
      const value = record.doc[field] ?? null;
      const bucket = index.get(value);
      if (bucket === undefined) index.set(value, [record]);
      else bucket.push(record);
    }
  }

  remove(id: string): StoredRecord | undefined {
    const record = this.byId.get(id);
    if (record === undefined) return undefined;
    this.byId.delete(id);
    removeBySeq(this.ordered, record.seq);
    for (const [field, index] of this.indexes) {
      const value = record.doc[field] ?? null;
      const bucket = index.get(value);
      if (bucket === undefined) continue;
      removeBySeq(bucket, record.seq);
      if (bucket.length === 0) index.delete(value);
    }
    return record;
  }

  /** Every record, oldest first. The array is live: callers must not modify it. */
  all(): readonly StoredRecord[] {
    return this.ordered;
  }

  /** Records whose indexed `field` equals `value` (null matches absent), oldest first. */
  where(field: string, value: unknown): readonly StoredRecord[] {
    const index = this.indexes.get(field);
    if (index === undefined) throw new Error(`field ${field} is not indexed`);
    return index.get(value ?? null) ?? [];
  }
}

/** Position of the first record with a sequence number greater than `seq` (binary search). */
export function positionAfter(records: readonly StoredRecord[], seq: number): number {
  let low = 0;
  let high = records.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (records[middle]!.seq <= seq) low = middle + 1;
    else high = middle;
  }
  return low;
}

function removeBySeq(records: StoredRecord[], seq: number): void {
  const position = positionAfter(records, seq) - 1;
  if (position >= 0 && records[position]!.seq === seq) records.splice(position, 1);
}
