import path from 'node:path';
import type { DocumentStore } from '../../../kernel/contracts/storage.js';
import { Journal } from './journal.js';
import { decodeOp, encodeDelete, encodePut, encodePuts, isObject } from './journal-ops.js';
import { worthCompacting, type JournalBacked, type StoreContext } from './store-context.js';

export interface Staged<T> {
  doc: T;
  durable: Promise<void>;
}

function assertDoc(name: string, doc: unknown): asserts doc is { id: string } {
  if (!isObject(doc) || typeof doc.id !== 'string' || doc.id === '') {
    throw new TypeError(`${name}: a document must be an object with a non-empty string id`);
  }
}

/**
 * A small collection held fully in memory, made durable by its journal. Changes apply to memory
 * synchronously and then wait for their fsync, so a read-modify-write cannot interleave with
 * another. Stored objects are never mutated (each write stores a new one): callers get clones.
 */
export class DocumentCollection<T extends { id: string }> implements DocumentStore<T>, JournalBacked {
  private readonly docs = new Map<string, T>();
  private journal: Journal | undefined;
  private compaction: Promise<void> | undefined;
  /** Bumped on every change; with the random epoch it names one state of the collection. */
  private changes = 0;
  private readonly epoch = Math.random().toString(36).slice(2);
  /** After a failed compaction (disk full?) wait before trying again rather than on every write. */
  private retryAfterMs = 0;

  constructor(
    protected readonly ctx: StoreContext,
    readonly name: string,
  ) {}

  async open(): Promise<void> {
    this.journal = await Journal.open(path.join(this.ctx.dir, `${this.name}.jsonl`), this.ctx.logger, (line) => this.replay(line));
  }

  check(): Promise<void> {
    return this.log.check();
  }

  async close(): Promise<void> {
    await this.journal?.close();
  }

  async get(id: string): Promise<T | undefined> {
    this.ctx.gate.assertOpen();
    const doc = this.docs.get(id);
    await this.settled();
    return doc && structuredClone(doc);
  }

  async list(): Promise<T[]> {
    this.ctx.gate.assertOpen();
    const docs = [...this.docs.values()];
    await this.settled();
    return docs.map((doc) => structuredClone(doc));
  }

  async put(doc: T): Promise<T> {
    this.ctx.gate.assertOpen();
    const staged = this.stagePut(doc);
    await staged.durable;
    return structuredClone(staged.doc);
  }

  /** Every document as one journal line: a crash keeps all of them or none (TaskStore.putAll). */
  async putAll(docs: T[]): Promise<void> {
    this.ctx.gate.assertOpen();
    for (const doc of docs) assertDoc(this.name, doc);
    if (docs.length === 0) return;
    const jsons = docs.map((doc) => JSON.stringify(doc));
    const { durable } = this.log.append(encodePuts(jsons));
    for (const json of jsons) {
      const stored = JSON.parse(json) as T;
      this.docs.set(stored.id, stored);
    }
    this.changes++;
    this.maybeCompact();
    await durable;
  }

  async update(id: string, change: (current: T) => T | undefined): Promise<T | undefined> {
    this.ctx.gate.assertOpen();
    const current = this.docs.get(id);
    const next = current && change(structuredClone(current));
    if (next === undefined) {
      await this.settled();
      return current && structuredClone(current);
    }
    if (isObject(next) && next.id !== id) {
      throw new TypeError(typeof (next as { then?: unknown }).then === 'function' ? `${this.name}: change must return the document, not a promise` : `${this.name}: update must not change the id (${id})`);
    }
    const staged = this.stagePut(next);
    await staged.durable;
    return structuredClone(staged.doc);
  }

  async delete(id: string): Promise<boolean> {
    this.ctx.gate.assertOpen();
    const durable = this.stageDelete(id);
    await (durable ?? this.settled());
    return durable !== undefined;
  }

  async count(): Promise<number> {
    this.ctx.gate.assertOpen();
    const count = this.docs.size;
    await this.settled();
    return count;
  }

  /** The stored document itself: read it, never mutate it. */
  peek(id: string): T | undefined {
    return this.docs.get(id);
  }

  values(): IterableIterator<T> {
    return this.docs.values();
  }

  get size(): number {
    return this.docs.size;
  }

  /** Applies a put to memory now; `durable` resolves once it is fsync'd. */
  stagePut(doc: T): Staged<T> {
    assertDoc(this.name, doc);
    const json = JSON.stringify(doc);
    // Stored as parsed from its own JSON, so what callers read now equals what a reopen reads.
    const stored = JSON.parse(json) as T;
    const { durable } = this.log.append(encodePut(json));
    this.docs.set(stored.id, stored);
    this.changes++;
    this.maybeCompact();
    return { doc: stored, durable };
  }

  /** Applies a delete to memory now; undefined when there was nothing to delete. */
  stageDelete(id: string): Promise<void> | undefined {
    if (!this.docs.has(id)) return undefined;
    const { durable } = this.log.append(encodeDelete(id));
    this.docs.delete(id);
    this.changes++;
    this.maybeCompact();
    return durable;
  }

  async revision(): Promise<string> {
    this.ctx.gate.assertOpen();
    const state = `${this.epoch}:${this.changes}`;
    await this.settled();
    return state;
  }

  /** Reads wait for earlier writes' fsync, so nobody sees a change that a crash could still undo. */
  settled(): Promise<void> {
    return this.log.settled();
  }

  private get log(): Journal {
    if (!this.journal) throw new Error(`${this.name} journal is not open`);
    return this.journal;
  }

  private replay(line: Buffer): boolean {
    const op = decodeOp(line);
    if (op?.op === 'put' && typeof op.doc.id === 'string') {
      this.docs.set(op.doc.id, op.doc as unknown as T);
      return true;
    }
    if (op?.op === 'puts' && op.docs.every((doc) => typeof doc.id === 'string')) {
      for (const doc of op.docs) this.docs.set(doc.id as string, doc as unknown as T);
      return true;
    }
    if (op?.op === 'del') {
      this.docs.delete(op.id);
      return true;
    }
    return false;
  }

  private maybeCompact(): void {
    const log = this.log;
    if (this.compaction || Date.now() < this.retryAfterMs || !worthCompacting(log.lines, this.docs.size, log.bytes, this.ctx.compactMinBytes)) return;
    void this.startCompaction().catch(() => undefined);
  }

  /**
   * Rewrites the journal now, whatever its size, so no superseded line is left in the file (a secret sealed again
   * must not stay readable in an old line). Waits for a compaction already under way, then runs its own.
   */
  async compactNow(): Promise<void> {
    this.ctx.gate.assertOpen();
    await this.compaction?.catch(() => undefined);
    await this.startCompaction();
  }

  private startCompaction(): Promise<void> {
    const run = this.log
      .compact(async (sink) => {
        // Snapshot synchronously, before the first await: later changes follow in the journal.
        const lines = [...this.docs.values()].map((doc) => Buffer.from(encodePut(JSON.stringify(doc))));
        for (const line of lines) await sink.write(line);
        return () => undefined;
      })
      .catch((error: unknown) => {
        this.retryAfterMs = Date.now() + 60_000;
        this.ctx.logger.warn({ err: error, collection: this.name }, 'compaction failed; retrying in a minute');
        throw error;
      })
      .finally(() => {
        if (this.compaction === run) this.compaction = undefined;
      });
    this.compaction = run;
    return run;
  }
}
