export interface Row {
  metric: string;
  value: string;
  target: string;
  baseline: string;
  ratio: string;
  result: string;
}

export const fmt = {
  ms: (v: number) => `${v < 10 ? v.toFixed(2) : v.toFixed(0)} ms`,
  rps: (v: number) => `${Math.round(v).toLocaleString('en-US')} req/s`,
  ratio: (v: number) => `${v.toFixed(2)}x`,
};

/** `PASS`/`FAIL` against a target; `INVALID` when the run itself went wrong (failed requests). */
export function verdict(ok: boolean | undefined, invalid = false): string {
  if (invalid) return 'INVALID';
  if (ok === undefined) return '-';
  return ok ? 'PASS' : 'FAIL';
}

/** A fixed-width table, one row per metric. */
export function formatTable(rows: Row[]): string {
  const header: Row = { metric: 'metric', value: 'value', target: 'target', baseline: 'baseline', ratio: 'ratio', result: 'result' };
  const columns = Object.keys(header) as (keyof Row)[];
  const widths = columns.map((c) => Math.max(...[header, ...rows].map((r) => r[c].length)));
  const line = (r: Row) => columns.map((c, i) => r[c].padEnd(widths[i]!)).join(' | ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('-|-');
  return [line(header), rule, ...rows.map(line)].join('\n');
}
