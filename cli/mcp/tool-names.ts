import { createHash } from 'node:crypto';

/** Within what every MCP client accepts (the spec allows `[A-Za-z0-9._-]{1,128}`; several clients only this). */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const MAX = 64;
const PREFIX = 'run_';

/** Letters without accents, digits, `_` and `-`; every other run of characters becomes one `_`. */
function sanitize(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^[_-]+|[_-]+$/g, '');
}

/** A short stable tag of a task id: the id itself when short and clean, else 8 hex of its hash. */
function idTag(id: string): string {
  const clean = sanitize(id);
  return clean.length > 0 && clean.length <= 20 && clean === id ? clean : createHash('sha256').update(id).digest('hex').slice(0, 8);
}

/**
 * One tool name per task: `run_<name in snake case>`; tasks whose names give the same tool name (or none) get
 * their id appended instead, so a name never depends on the order of the list. Keys of the answer are tool names.
 */
export function toolNamesFor<T extends { id: string; name: string }>(tasks: readonly T[]): Map<string, T> {
  const base = (task: T) => `${PREFIX}${sanitize(task.name).toLowerCase()}`.slice(0, MAX).replace(/[_-]+$/, '');
  const counts = new Map<string, number>();
  for (const task of tasks) counts.set(base(task), (counts.get(base(task)) ?? 0) + 1);
  const names = new Map<string, T>();
  for (const task of [...tasks].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const plain = base(task);
    const tag = idTag(task.id);
    let name = plain !== PREFIX.slice(0, -1) && counts.get(plain) === 1 ? plain : `${plain.slice(0, MAX - tag.length - 1)}_${tag}`;
    const stem = name;
    for (let n = 2; names.has(name); n++) name = `${stem.slice(0, MAX - String(n).length - 1)}_${n}`;
    names.set(name, task);
  }
  return names;
}
