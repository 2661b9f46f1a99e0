import { readdirSync, readFileSync } from 'node:fs';

// The resident memory of a process and its descendants, from /proc (Linux): how much a browser takes, renderers
// and GPU/utility processes included. Elsewhere (no /proc) undefined: the estimate stays as it was.

function parentOf(pid: string, procRoot: string): string | undefined {
  try {
    const stat = readFileSync(`${procRoot}/${pid}/stat`, 'utf8');
    // The command name (2nd field) may hold spaces and parentheses: the fields after its last ')' are fixed.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
  } catch {
    return undefined;
  }
}

function rssBytes(pid: string, procRoot: string): number {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`${procRoot}/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Bytes resident in `pid` and every process below it; undefined when /proc cannot be read or `pid` is gone. */
export function processTreeRss(pid: number, procRoot = '/proc'): number | undefined {
  let entries: string[];
  try {
    entries = readdirSync(procRoot).filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const children = new Map<string, string[]>();
  for (const child of entries) {
    const parent = parentOf(child, procRoot);
    if (parent) children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  if (!entries.includes(String(pid))) return undefined;
  let total = 0;
  const stack = [String(pid)];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    total += rssBytes(next, procRoot);
    stack.push(...(children.get(next) ?? []));
  }
  return total;
}
