import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../../kernel/contracts/logger.js';
import { Errors } from '../../../kernel/errors.js';
import { CompactionWriter, WindowReader } from './compaction-io.js';
import { createDeferred, type Deferred } from './deferred.js';
import { FileRef } from './file-ref.js';
import { STORE_FILE_MODE, keepPrivate, readExactly, syncDir, writeFully } from './file-io.js';
import { scanJournal } from './journal-scan.js';

/** Lines waiting for one write + fsync; every writer in it waits on the same `done`. */
interface Batch {
  chunks: Buffer[];
  bytes: number;
  lines: number;
  done: Deferred;
}

export interface Appended {
  /** Where the line lands in the file. Exact only while no compaction runs (the caller ensures that). */
  offset: number;
  /** Bytes of the line without its newline. */
  length: number;
  /** Resolves once the line is fsync'd. */
  durable: Promise<void>;
}

export interface CompactionSink {
  /** Appends a line (without newline) to the new file; resolves to its offset there. */
  write(line: Buffer): Promise<number>;
  /** Reads bytes of the current (old) file, which nothing writes to while compaction runs. */
  read(offset: number, length: number): Promise<Buffer>;
}

/**
 * Writes the live state through `sink` and resolves to a function the journal calls at the
 * instant the new file takes over (to move in-memory offsets in the same tick).
 */
export type CompactionProducer = (sink: CompactionSink) => Promise<() => void>;

export interface JournalReader {
  read(offset: number, length: number): Promise<Buffer>;
  release(): void;
}

const newBatch = (): Batch => ({ chunks: [], bytes: 0, lines: 0, done: createDeferred() });

/**
 * An append-only JSON-lines file with group commit: lines appended while a write + fsync is in
 * flight are written together by the next one, and each appender waits for the fsync covering
 * its own line. One loop does every write and every compaction, so they never overlap.
 */
export class Journal {
  private pending = newBatch();
  private inflight: Batch | undefined;
  private readonly compactions: Array<{ produce: CompactionProducer; done: Deferred }> = [];
  private loop: Promise<void> | undefined;
  private compacting = false;
  private failure: Error | undefined;
  private closed = false;

  private constructor(
    readonly file: string,
    private current: FileRef,
    /** Bytes in the file once the in-flight write lands. */
    private fileBytes: number,
    private lineCount: number,
    private readonly logger: Logger,
  ) {}

  /** Replays the file through `onLine`, cuts a torn tail off and opens it for appending. */
  static async open(file: string, logger: Logger, onLine: (line: Buffer, offset: number) => boolean): Promise<Journal> {
    // A leftover from a compaction that died before its rename: the journal itself is authoritative.
    await fs.rm(`${file}.compact`, { force: true });
    const existed = await fs.stat(file).then(() => true, () => false);
    const scan = await scanJournal(file, onLine);
    const handle = await fs.open(file, 'a+', STORE_FILE_MODE);
    try {
      await keepPrivate(handle);
      if (scan.fileSize > scan.validEnd) {
        await handle.truncate(scan.validEnd);
        await handle.datasync();
        logger.warn({ file, droppedBytes: scan.fileSize - scan.validEnd }, 'dropped a torn tail of the journal (an unacknowledged write cut by a crash)');
      }
      if (scan.skipped > 0) logger.warn({ file, lines: scan.skipped }, 'skipped unreadable lines in the middle of the journal');
      if (!existed) await syncDir(path.dirname(file));
    } catch (error) {
      await handle.close();
      throw error;
    }
    return new Journal(file, new FileRef(handle), scan.validEnd, scan.accepted + scan.skipped, logger);
  }

  /** Bytes in the file plus bytes waiting to be written. */
  get bytes(): number {
    return this.fileBytes + this.pending.bytes;
  }

  /** Lines in the file plus lines waiting: compare with the live count to spot dead weight. */
  get lines(): number {
    return this.lineCount;
  }

  /** Queues one line; throws when the journal failed or is closed. */
  append(line: string): Appended {
    if (this.failure) throw this.failure;
    if (this.closed) throw Errors.STORAGE_UNAVAILABLE({ reason: `${this.file} is closed` });
    const data = Buffer.from(`${line}\n`, 'utf8');
    const offset = this.fileBytes + this.pending.bytes;
    this.pending.chunks.push(data);
    this.pending.bytes += data.length;
    this.pending.lines += 1;
    this.lineCount += 1;
    this.kick();
    return { offset, length: data.length - 1, durable: this.pending.done.promise };
  }

  /** Resolves once every line appended so far is durable. */
  settled(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.pending.lines > 0) return this.pending.done.promise;
    if (this.inflight) return this.inflight.done.promise;
    return Promise.resolve();
  }

  /** Rewrites the file with what `produce` writes, between two group commits. */
  compact(produce: CompactionProducer): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed) return Promise.resolve();
    const done = createDeferred();
    this.compactions.push({ produce, done });
    this.kick();
    return done.promise;
  }

  /** A reader pinned to the current file, so compaction cannot close it underneath. Release it. */
  openReader(): JournalReader {
    const ref = this.current.acquire();
    let released = false;
    return {
      read: (offset, length) => readExactly(ref.handle, this.file, offset, length),
      release: () => {
        if (released) return;
        released = true;
        ref.release();
      },
    };
  }

  /** Rejects when a write failed or the file on disk is no longer the one being written. */
  async check(): Promise<void> {
    if (this.failure) throw this.failure;
    const onDisk = await fs.stat(this.file).catch((error: NodeJS.ErrnoException) => {
      throw Errors.STORAGE_UNAVAILABLE({ reason: `${this.file} is gone (${error.code}): restart taskloom to recover from what is on disk` }, { cause: error });
    });
    const open = await this.current.handle.stat();
    if (!this.compacting && (onDisk.ino !== open.ino || onDisk.dev !== open.dev)) {
      throw Errors.STORAGE_UNAVAILABLE({ reason: `${this.file} was replaced while open: restart taskloom` });
    }
  }

  /** Writes what is queued, drops queued compactions and closes the file. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    for (const request of this.compactions.splice(0)) request.done.resolve();
    while (this.loop) await this.loop;
    await this.current.retire();
  }

  private kick(): void {
    if (this.loop) return;
    // setImmediate rather than a microtask: writers resuming in the same turn join the first batch.
    this.loop = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.drain());
  }

  private async drain(): Promise<void> {
    try {
      while (!this.failure) {
        const compaction = this.compactions.shift();
        if (compaction) await this.compactNow(compaction.produce, compaction.done);
        else if (this.pending.lines > 0) await this.writeBatch();
        else break;
      }
    } finally {
      // Cleared in the same tick as the last emptiness check, so a later append starts a new loop.
      this.loop = undefined;
    }
  }

  private async writeBatch(): Promise<void> {
    const batch = this.pending;
    this.pending = newBatch();
    this.inflight = batch;
    this.fileBytes += batch.bytes;
    try {
      await writeFully(this.current.handle, batch.chunks.length === 1 ? batch.chunks[0] : Buffer.concat(batch.chunks, batch.bytes));
      await this.current.handle.datasync();
      batch.done.resolve();
    } catch (error) {
      this.fail(error, batch);
    } finally {
      this.inflight = undefined;
    }
  }

  /**
   * Lines still queued are part of the state `produce` snapshots, so they are not written to the
   * old file: their writers are acknowledged once the new file is in place. Lines appended while
   * compaction runs are written to the new file afterwards.
   */
  private async compactNow(produce: CompactionProducer, done: Deferred): Promise<void> {
    if (this.closed) return done.resolve();
    const consumed = this.pending;
    this.pending = newBatch();
    this.inflight = consumed;
    this.compacting = true;
    const temp = `${this.file}.compact`;
    let renamed = false;
    try {
      const writer = await CompactionWriter.create(temp);
      let commit: () => void;
      try {
        const reader = new WindowReader(this.current.handle, this.file);
        commit = await produce({ write: (line) => writer.writeLine(line), read: (offset, length) => reader.read(offset, length) });
        await writer.finish();
      } catch (error) {
        await writer.abort();
        throw error;
      }
      await fs.rename(temp, this.file);
      renamed = true;
      await syncDir(path.dirname(this.file));
      const handle = await fs.open(this.file, 'a+', STORE_FILE_MODE);
      const old = this.current;
      this.current = new FileRef(handle);
      void old.retire().catch((error: unknown) => this.logger.warn({ err: error, file: this.file }, 'closing the pre-compaction journal failed'));
      this.logger.debug({ file: this.file, linesBefore: this.lineCount, linesAfter: writer.lines, bytes: writer.bytes }, 'compacted journal');
      this.fileBytes = writer.bytes;
      this.lineCount = writer.lines + this.pending.lines;
      commit();
      consumed.done.resolve();
      done.resolve();
    } catch (error) {
      if (renamed) {
        this.fail(error, consumed);
        done.reject(this.failure);
        return;
      }
      await fs.rm(temp, { force: true }).catch(() => undefined);
      this.requeueFirst(consumed);
      done.reject(error);
    } finally {
      this.inflight = undefined;
      this.compacting = false;
    }
  }

  /** After a failed compaction the consumed lines go back in front, to be written to the old file. */
  private requeueFirst(consumed: Batch): void {
    if (consumed.lines === 0) return consumed.done.resolve();
    const later = this.pending;
    this.pending = {
      chunks: [...consumed.chunks, ...later.chunks],
      bytes: consumed.bytes + later.bytes,
      lines: consumed.lines + later.lines,
      done: later.done,
    };
    later.done.promise.then(() => consumed.done.resolve(), (error: unknown) => consumed.done.reject(error));
  }

  /** A failed write or fsync leaves the file in an unknown state: refuse everything from now on. */
  private fail(error: unknown, batch: Batch): void {
    const reason = error instanceof Error ? error.message : String(error);
    this.failure = Errors.STORAGE_UNAVAILABLE(
      { reason: `writing ${this.file} failed (${reason}); fix the disk, then restart taskloom` },
      { cause: error },
    );
    this.logger.error({ err: error, file: this.file }, 'journal write failed; the store now refuses writes');
    batch.done.reject(this.failure);
    this.pending.done.reject(this.failure);
    for (const request of this.compactions.splice(0)) request.done.reject(this.failure);
  }
}
