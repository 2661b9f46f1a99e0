import fs, { type FileHandle } from 'node:fs/promises';

const CHUNK_BYTES = 4 * 1024 * 1024;
const NEWLINE = 0x0a;

export interface ScanResult {
  /** Byte length of the file as found. */
  fileSize: number;
  /** End (after the newline) of the last line `onLine` accepted: everything past it is a torn tail. */
  validEnd: number;
  /** Lines accepted. */
  accepted: number;
  /** Unreadable complete lines followed by good ones: corruption mid-file, kept on disk but ignored. */
  skipped: number;
}

/**
 * Reads a JSON-lines journal front to back and hands every complete line (without its newline)
 * and its byte offset to `onLine`, which returns false for a line it cannot use.
 * The line buffer is reused afterwards: `onLine` must not keep it.
 */
export async function scanJournal(
  file: string,
  onLine: (line: Buffer, offset: number) => boolean,
): Promise<ScanResult> {
  let handle: FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { fileSize: 0, validEnd: 0, accepted: 0, skipped: 0 };
    throw error;
  }
  try {
    return await scanHandle(handle, onLine);
  } finally {
    await handle.close();
  }
}

async function scanHandle(handle: FileHandle, onLine: (line: Buffer, offset: number) => boolean): Promise<ScanResult> {
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  const result: ScanResult = { fileSize: 0, validEnd: 0, accepted: 0, skipped: 0 };
  let carry = Buffer.alloc(0);
  let carryOffset = 0;
  let rejectedSinceAccepted = 0;
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, result.fileSize);
    if (bytesRead === 0) break;
    result.fileSize += bytesRead;
    const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
    let start = 0;
    for (let end = data.indexOf(NEWLINE, start); end !== -1; end = data.indexOf(NEWLINE, start)) {
      if (end > start && onLine(data.subarray(start, end), carryOffset + start)) {
        result.accepted += 1;
        result.validEnd = carryOffset + end + 1;
        result.skipped += rejectedSinceAccepted;
        rejectedSinceAccepted = 0;
      } else {
        rejectedSinceAccepted += 1;
      }
      start = end + 1;
    }
    // Copy: `chunk` is overwritten by the next read.
    carry = Buffer.from(data.subarray(start));
    carryOffset += start;
  }
  return result;
}
