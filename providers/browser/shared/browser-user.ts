import { readFileSync } from 'node:fs';
import { chmod, stat } from 'node:fs/promises';
import path from 'node:path';

/** The account Chromium runs as when it is not the service's own. */
export interface BrowserUser {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

/** The account a service running as root drops to when BROWSER_USER is unset. */
export const DEFAULT_BROWSER_USER = 'nobody';
const NOBODY_ID = 65534;

const serviceUid = () => process.getuid?.();

/**
 * Whom Chromium runs as: undefined when it runs as the service's own user (a service that is not root, or
 * BROWSER_USER=root). A service running as root drops to BROWSER_USER, by default `nobody`, so a browser
 * cannot read the service's files and its sandbox can work (Chromium refuses its sandbox as root).
 * Throws, naming the variable, for an unknown user or a non-root service asked to switch.
 */
export function resolveBrowserUser(setting: string | undefined, passwd: () => string = readPasswd): BrowserUser | undefined {
  const own = serviceUid();
  if (own === undefined) return undefined; // not POSIX: no users to switch between
  const wanted = setting ?? (own === 0 ? DEFAULT_BROWSER_USER : undefined);
  if (wanted === undefined) return undefined;
  const user = lookUp(wanted, passwd);
  if (user.uid === own) return undefined;
  if (own !== 0) throw new Error(`BROWSER_USER=${wanted} needs the service to run as root (it runs as uid ${own}): unset BROWSER_USER`);
  return user.uid === 0 ? undefined : user;
}

function lookUp(wanted: string, passwd: () => string): BrowserUser {
  const numeric = /^(\d+)(?::(\d+))?$/.exec(wanted);
  if (numeric) return { name: wanted, uid: Number(numeric[1]), gid: Number(numeric[2] ?? numeric[1]) };
  let entries: string[] = [];
  try {
    entries = passwd().split('\n');
  } catch {
    // No /etc/passwd: only nobody's well-known id can be assumed.
  }
  for (const line of entries) {
    const [name, , uid, gid] = line.split(':');
    if (name === wanted && uid !== undefined && gid !== undefined) return { name, uid: Number(uid), gid: Number(gid) };
  }
  if (wanted === DEFAULT_BROWSER_USER) return { name: wanted, uid: NOBODY_ID, gid: NOBODY_ID };
  throw new Error(`BROWSER_USER names "${wanted}", which is not a user of this machine: create it (useradd --system ${wanted}) ` +
    'or give uid:gid');
}

const readPasswd = () => readFileSync('/etc/passwd', 'utf8');

// What Chromium needs from the service's environment; the rest (keys, database URLs, tokens) stays out of it.
const KEPT = /^(PATH|LANG|LANGUAGE|LC_[A-Z]+|TZ|TZDIR|DISPLAY|WAYLAND_DISPLAY|TMPDIR|FONTCONFIG_FILE|FONTCONFIG_PATH|LD_LIBRARY_PATH|(https?|no|all)_proxy|(HTTPS?|NO|ALL)_PROXY)$/;

/**
 * The browser's environment: the variables above, `extra` (a display, a packaged Chromium's libraries), and
 * HOME in its profile, so nothing it writes by default (downloads, caches, the NSS database) lands in the
 * service's home. A browser of another user also loses XAUTHORITY and the session bus, which it could not open.
 */
export function browserEnvironment(base: NodeJS.ProcessEnv, extra: Record<string, string> | undefined, profileDir: string,
  user: BrowserUser | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) if (value !== undefined && KEPT.test(name)) env[name] = value;
  if (!user && base.XAUTHORITY) env.XAUTHORITY = base.XAUTHORITY;
  return { ...env, ...extra, HOME: profileDir };
}

/**
 * Lets `user` reach `target`: every folder on the way must be searchable by it. Folders inside `grantWithin`
 * (DATA_DIR, which the service made) get the search bit for others when they lack it (never read: their
 * files keep their own modes, and the stores' are 0600); any other folder in the way is an error saying what
 * to do, as the service has no business changing, say, /root.
 */
export async function ensureReachable(target: string, user: BrowserUser, grantWithin: string | undefined): Promise<string[]> {
  const granted: string[] = [];
  const folders: string[] = [];
  for (let dir = path.dirname(path.resolve(target)); ; dir = path.dirname(dir)) {
    folders.unshift(dir);
    if (dir === path.dirname(dir)) break;
  }
  const within = grantWithin ? path.resolve(grantWithin) : undefined;
  for (const dir of folders) {
    const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined; // made later by the service, passable (mkdir's 0755)
      throw error;
    });
    if (!info) break;
    const bit = info.uid === user.uid ? 0o100 : info.gid === user.gid ? 0o010 : 0o001;
    if (info.mode & bit) continue;
    if (within && (dir === within || dir.startsWith(within + path.sep)) && info.uid === serviceUid()) {
      await chmod(dir, (info.mode & 0o7777) | 0o001);
      granted.push(dir);
      continue;
    }
    throw new Error(`${target} cannot be reached by the browser's user ${user.name} (uid ${user.uid}): ${dir} is not searchable by it. ` +
      'Install Chromium where every user can run it (e.g. the chromium package), or set BROWSER_USER=root (no sandbox)');
  }
  return granted;
}
