import type { FileHandle } from 'node:fs/promises';
import { createDeferred } from './deferred.js';

/**
 * A file handle shared by positioned readers. Compaction swaps the journal for a new file while
 * readers may still be reading the old one at old offsets; the old handle closes when the last
 * of them is done (the renamed-over file stays readable through it until then).
 */
export class FileRef {
  private refs = 0;
  private retired = false;
  private closing = false;
  private readonly closed = createDeferred();

  constructor(readonly handle: FileHandle) {}

  acquire(): FileRef {
    this.refs += 1;
    return this;
  }

  release(): void {
    this.refs -= 1;
    if (this.retired && this.refs === 0) this.closeNow();
  }

  /** No new readers; closes once current readers release. Idempotent. */
  retire(): Promise<void> {
    this.retired = true;
    if (this.refs === 0) this.closeNow();
    return this.closed.promise;
  }

  private closeNow(): void {
    if (this.closing) return;
    this.closing = true;
    this.handle.close().then(() => this.closed.resolve(), (error: unknown) => this.closed.reject(error));
  }
}
