import { chown, mkdtemp, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * A fresh folder in `parent` (a launched browser's profile) that the browser may write to: owned by whoever owns
 * `parent`, which is the browser's own user when it runs as another (BROWSER_USER). Downloads land in it.
 */
export async function browserWritableFolder(parent: string, prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(parent, prefix));
  const owner = await stat(parent);
  if (owner.uid !== process.getuid?.()) await chown(dir, owner.uid, owner.gid);
  return dir;
}
