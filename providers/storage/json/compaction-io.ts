import fs, { type FileHandle } from 'node:fs/promises';
import { STORE_FILE_MODE, readAt, writeFully } from './file-io.js';

const FLUSH_BYTES = 1024 * 1024;
const WINDOW_BYTES = 1024 * 1024;
const NEWLINE = Buffer.from('\n');

/** Writes the compacted journal to a temporary file in large buffered writes. */
export class CompactionWriter {
  bytes = 0;
  lines = 0;
  private chunks: Buffer[] = [];
  private buffered = 0;

  private constructor(
    private readonly handle: FileHandle,
    readonly file: string,
  ) {}

  static async create(file: string): Promise<CompactionWriter> {
    return new CompactionWriter(await fs.open(file, 'w', STORE_FILE_MODE), file);
  }

  /** Appends one line (given without its newline); resolves to its byte offset in the new file. */
  async writeLine(line: Buffer): Promise<number> {
    const offset = this.bytes;
    this.chunks.push(line, NEWLINE);
    this.buffered += line.length + 1;
    this.bytes += line.length + 1;
    this.lines += 1;
    if (this.buffered >= FLUSH_BYTES) await this.flush();
    return offset;
  }

  /** Flushes, fsyncs and closes: the file is complete and durable before anyone renames it. */
  async finish(): Promise<void> {
    await this.flush();
    await this.handle.datasync();
    await this.handle.close();
  }

  async abort(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await fs.rm(this.file, { force: true }).catch(() => undefined);
  }

  private async flush(): Promise<void> {
    if (this.buffered === 0) return;
    const data = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [];
    this.buffered = 0;
    await writeFully(this.handle, data);
  }
}

/**
 * Reads byte ranges of the old journal through a 1 MiB window: compaction visits live records
 * mostly in file order, so one read serves many records.
 */
export class WindowReader {
  private window = Buffer.alloc(0);
  private start = 0;

  constructor(
    private readonly handle: FileHandle,
    private readonly file: string,
  ) {}

  async read(offset: number, length: number): Promise<Buffer> {
    const from = offset - this.start;
    if (from >= 0 && from + length <= this.window.length) return this.window.subarray(from, from + length);
    // A fresh buffer each time: lines handed out earlier may still be queued in the writer.
    const buffer = Buffer.allocUnsafe(Math.max(length, WINDOW_BYTES));
    const got = await readAt(this.handle, buffer, offset);
    if (got < length) throw new Error(`${this.file}: expected ${length} bytes at offset ${offset}, found ${got}`);
    this.window = buffer.subarray(0, got);
    this.start = offset;
    return this.window.subarray(0, length);
  }
}
