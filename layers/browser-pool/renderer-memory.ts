import { readFileSync, readdirSync } from 'node:fs';

// The renderer processes of a launched Chromium and their private memory, read from Linux's /proc. The
// DevTools protocol cannot do this: it maps no page to a process, and a renderer busy parsing a huge page or
// running a tight loop answers it seconds late, while /proc answers at once.

/** One renderer process and its private (anonymous resident) memory: its JavaScript, DOM and layout heaps. */
export interface RendererSample {
  pid: number;
  privateMb: number;
}

/** Reads the renderers under a browser's process (the one launched, maybe a wrapper script around Chromium). */
export type RendererReader = (browserPid: number) => RendererSample[];

type Kind = 'renderer' | 'spawner' | 'other';

/** True where /proc can be read (Linux). */
export function canReadRenderers(): boolean {
  try {
    readFileSync('/proc/self/status', 'latin1');
    return true;
  } catch {
    return false;
  }
}

/**
 * A reader that walks the process tree from the browser: through the launcher (a wrapper script, the browser
 * process) and zygotes, which start renderers, never into renderers, GPU or utility processes. Each process's
 * kind is read once (its command line). Where the kernel lists no children, it scans /proc for the process group.
 */
export function createRendererReader(): RendererReader {
  let kinds = new Map<number, Kind>();
  return (browserPid) => {
    const seen = new Map<number, Kind>();
    const samples: RendererSample[] = [];
    const pids = descendants(browserPid, (pid) => {
      const kind = kinds.get(pid) ?? kindOf(pid);
      seen.set(pid, kind);
      return kind;
    });
    for (const pid of pids) {
      if (seen.get(pid) !== 'renderer') continue;
      const privateMb = privateMemoryMb(pid);
      if (privateMb !== undefined) samples.push({ pid, privateMb });
    }
    kinds = seen;
    return samples;
  };
}

/** `root` and the processes below it that `kindOf` lets the walk reach. */
function descendants(root: number, kindOf: (pid: number) => Kind): number[] {
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    const kind = kindOf(pid);
    found.push(pid);
    if (kind !== 'spawner') continue;
    const children = childrenOf(pid);
    if (children === undefined) return groupMembers(root).filter((member) => (member === root || kindOf(member) === 'renderer'));
    queue.push(...children);
  }
  return found;
}

/** The children of `pid` (every thread's), or undefined when the kernel does not list them. */
function childrenOf(pid: number): number[] | undefined {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return []; // gone
  }
  const children: number[] = [];
  for (const tid of threads) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'latin1');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && tid === String(pid)) return undefined;
      continue;
    }
    for (const child of text.split(' ')) if (child.trim() !== '') children.push(Number(child));
  }
  return children;
}

/** Every process whose process group is `pgid` (the launcher starts Chromium in a group of its own). */
function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (name.charCodeAt(0) > 57) continue; // not a pid
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      // After "pid (comm) ": state, ppid, pgrp. comm may hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 3);
      if (Number(fields[2]) === pgid) members.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return members;
}

function kindOf(pid: number): Kind {
  let commandLine: string;
  try {
    commandLine = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
  } catch {
    return 'other';
  }
  const type = /--type=([\w-]+)/.exec(commandLine)?.[1];
  if (type === 'renderer') return 'renderer';
  return type === undefined || type === 'zygote' ? 'spawner' : 'other';
}

function privateMemoryMb(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    const kb = /RssAnon:\s+(\d+) kB/.exec(status)?.[1];
    return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
  } catch {
    return undefined;
  }
}
