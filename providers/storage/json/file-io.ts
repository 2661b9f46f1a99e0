import fs, { type FileHandle } from 'node:fs/promises';

/** Store files hold users, settings and secrets: only the service's user may read them. */
export const STORE_FILE_MODE = 0o600;
/** The store folder: only the service's user may list it. */
export const STORE_DIR_MODE = 0o700;

/** A store file an older version created readable to others (0644) is narrowed to STORE_FILE_MODE. */
export async function keepPrivate(handle: FileHandle): Promise<void> {
  const { mode } = await handle.stat();
  if ((mode & 0o077) !== 0) await handle.chmod(STORE_FILE_MODE);
}

/** write(2) may write less than asked (signals, quotas); loop until every byte is in the file. */
export async function writeFully(handle: FileHandle, data: Buffer): Promise<void> {
  let done = 0;
  while (done < data.length) {
    const { bytesWritten } = await handle.write(data, done, data.length - done, null);
    done += bytesWritten;
  }
}

/** Reads up to `buffer.length` bytes at `position`; short only at end of file. */
export async function readAt(handle: FileHandle, buffer: Buffer, position: number): Promise<number> {
  let done = 0;
  while (done < buffer.length) {
    const { bytesRead } = await handle.read(buffer, done, buffer.length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done;
}

/** Reads exactly `length` bytes at `position`, or throws naming the file. */
export async function readExactly(handle: FileHandle, file: string, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  const got = await readAt(handle, buffer, position);
  if (got !== length) throw new Error(`${file}: expected ${length} bytes at offset ${position}, found ${got}`);
  return buffer;
}

/** A rename or a new file is durable only once its directory entry is flushed too. */
export async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
