import type { Logger } from '../../../kernel/contracts/logger.js';
import { Errors } from '../../../kernel/errors.js';

/** Turns every call after close() into one clear rejection. */
export class StoreGate {
  private closed = false;

  constructor(private readonly dir: string) {}

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    this.closed = true;
  }

  assertOpen(): void {
    if (this.closed) throw Errors.STORAGE_UNAVAILABLE({ reason: `the json store at ${this.dir} is closed` });
  }
}

/** What every collection of one store shares. */
export interface StoreContext {
  dir: string;
  logger: Logger;
  gate: StoreGate;
  /** Compaction waits until a journal is at least this big (and mostly dead lines). */
  compactMinBytes: number;
}

/** Every part of the store owns one journal file. */
export interface JournalBacked {
  open(): Promise<void>;
  check(): Promise<void>;
  close(): Promise<void>;
}

/** True when at least half the journal is superseded lines and it is big enough to be worth rewriting. */
export function worthCompacting(lines: number, live: number, bytes: number, minBytes: number): boolean {
  return lines - live > live && bytes >= minBytes;
}
