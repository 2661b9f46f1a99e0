import { chmod, chown, mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../kernel/contracts/logger.js';

/**
 * Each browser session's own folder, DATA_DIR/browser-sessions/<sessionId>/downloads: the one place a
 * DevTools client may download to or hand files from. It belongs to the browser's user (who writes the
 * downloads), and goes with its session; the folders of a previous run of the service go at start.
 */
export class SessionFolders {
  readonly root: string;

  constructor(private readonly dataDir: string, private readonly logger: Logger) {
    this.root = path.join(dataDir, 'browser-sessions');
  }

  downloadsOf(sessionId: string): string {
    return path.join(this.root, sessionId, 'downloads');
  }

  /** Makes the session's downloads folder, owned by the user the browser (process `pid`) runs as. */
  async prepare(sessionId: string, pid: number | undefined): Promise<string> {
    const downloads = this.downloadsOf(sessionId);
    await mkdir(downloads, { recursive: true, mode: 0o700 });
    const owner = pid === undefined ? undefined : await stat(`/proc/${pid}`).catch(() => undefined);
    if (owner && owner.uid !== process.getuid?.()) {
      await chown(path.dirname(downloads), owner.uid, owner.gid);
      await chown(downloads, owner.uid, owner.gid);
      // The browser's user must pass through DATA_DIR (search only: it lists nothing, and store files are 0600).
      for (const dir of [this.dataDir, this.root]) await searchableByOthers(dir);
      await this.warnUnreachable(owner.uid);
    }
    return downloads;
  }

  async remove(sessionId: string): Promise<void> {
    await rm(path.join(this.root, sessionId), { recursive: true, force: true });
  }

  /** At start: a session never outlives the service, nor does its folder. */
  async removeAll(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }

  /** A folder above DATA_DIR that others cannot pass keeps the browser from its downloads: say so once. */
  private warned = false;
  private async warnUnreachable(uid: number): Promise<void> {
    if (this.warned) return;
    for (let dir = path.dirname(this.dataDir); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      const info = await stat(dir).catch(() => undefined);
      if (info && info.uid !== uid && !(info.mode & 0o001)) {
        this.warned = true;
        this.logger.warn({ dir, dataDir: this.dataDir }, 'the browser\'s user cannot pass this folder to reach DATA_DIR: '
          + 'downloads of browser sessions fail (allow others to search it: chmod o+x, or move DATA_DIR)');
        return;
      }
    }
  }
}

async function searchableByOthers(dir: string): Promise<void> {
  const info = await stat(dir);
  if (!(info.mode & 0o001)) await chmod(dir, (info.mode & 0o7777) | 0o001);
}
