import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// What this process may use of the host: memory and CPUs, from its cgroup (v2, else v1) when it has a limit there,
// else the machine's. Read once at start-up and on each GET /api/capabilities (a few small files).

/** Where a figure came from, as /api/capabilities reports it. */
export interface Figure {
  value: number;
  /** The file it was read from, or `os.totalmem()` / `os.availableParallelism()`. */
  source: string;
}

export interface HostResources {
  /** Bytes this process's cgroup may use (or the machine's memory). */
  memoryBytes: Figure;
  /** CPUs it may use: the cgroup's quota / period (may be fractional), or the machine's. */
  cpus: Figure;
}

/** The default cgroup mount; TASKLOOM_CGROUP_ROOT replaces it (tests point it at a folder of fake files). */
export const CGROUP_ROOT = '/sys/fs/cgroup';
// cgroup v1 writes "no limit" as a huge number (PAGE_COUNTER_MAX in bytes); anything above 2^60 means none.
const NO_LIMIT = 2 ** 60;

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** This process's own cgroup paths (`/proc/self/cgroup`, or `selfCgroup`): `''` for v2, else by controller. None under a fake root. */
function ownPaths(root: string, selfCgroup?: string): Map<string, string> {
  const paths = new Map<string, string>();
  if (selfCgroup === undefined && root !== CGROUP_ROOT) return paths;
  for (const line of (selfCgroup ?? readText('/proc/self/cgroup') ?? '').split('\n')) {
    const [, controllers, where] = line.split(':');
    if (controllers === undefined || where === undefined || where === '/') continue;
    for (const name of controllers.split(',')) paths.set(name, where);
  }
  return paths;
}

/**
 * The readable files named `name` from the process's own cgroup up to the root of the mount (a limit set on a parent
 * applies too; a namespace shows its own cgroup as the root), nearest first.
 */
function filesUp(root: string, controllerDir: string, own: string | undefined, name: string): { file: string; text: string }[] {
  const found: { file: string; text: string }[] = [];
  const levels = (own ?? '').split('/').filter(Boolean);
  for (let depth = levels.length; depth >= 0; depth--) {
    const file = path.join(root, controllerDir, ...levels.slice(0, depth), name);
    const text = readText(file);
    if (text) found.push({ file, text });
  }
  return found;
}

/** The smallest figure of those given (undefined when none is a limit). */
const smallest = (figures: (Figure | undefined)[]): Figure | undefined =>
  figures.reduce<Figure | undefined>((min, figure) => (figure && (!min || figure.value < min.value) ? figure : min), undefined);

const memoryLimit = (found: { file: string; text: string }): Figure | undefined => {
  const value = Number(found.text);
  return Number.isFinite(value) && value > 0 && value < NO_LIMIT ? { value, source: found.file } : undefined; // v2 "max": NaN
};

function cgroupMemory(root: string, own: Map<string, string>): Figure | undefined {
  const v2 = filesUp(root, '', own.get(''), 'memory.max');
  if (v2.length > 0) return smallest(v2.map(memoryLimit));
  return smallest(filesUp(root, 'memory', own.get('memory'), 'memory.limit_in_bytes').map(memoryLimit));
}

function cgroupCpus(root: string, own: Map<string, string>): Figure | undefined {
  const v2 = filesUp(root, '', own.get(''), 'cpu.max');
  if (v2.length > 0) {
    return smallest(v2.map(({ file, text }) => {
      const [quota, period] = text.split(/\s+/);
      return quota === 'max' || !quota || !(Number(period) > 0) ? undefined : { value: Number(quota) / Number(period), source: file };
    }));
  }
  const dir = own.get('cpu');
  const periods = new Map(filesUp(root, 'cpu', dir, 'cpu.cfs_period_us').map(({ file, text }) => [path.dirname(file), Number(text)]));
  return smallest(filesUp(root, 'cpu', dir, 'cpu.cfs_quota_us').map(({ file, text }) => {
    const period = periods.get(path.dirname(file));
    return Number(text) > 0 && period && period > 0 ? { value: Number(text) / period, source: file } : undefined;
  }));
}

/**
 * The memory and CPUs this process may use; a cgroup limit above the machine's own counts as the machine's.
 * `selfCgroup`: the text of /proc/self/cgroup to use (tests).
 */
export function readHostResources(root: string = CGROUP_ROOT, selfCgroup?: string): HostResources {
  const own = ownPaths(root, selfCgroup);
  const machineMemory = { value: os.totalmem(), source: 'os.totalmem()' };
  const machineCpus = { value: os.availableParallelism(), source: 'os.availableParallelism()' };
  const memory = cgroupMemory(root, own);
  const cpus = cgroupCpus(root, own);
  return {
    memoryBytes: memory && Number.isFinite(memory.value) && memory.value < machineMemory.value ? memory : machineMemory,
    cpus: cpus && Number.isFinite(cpus.value) && cpus.value > 0 && cpus.value < machineCpus.value ? cpus : machineCpus,
  };
}
