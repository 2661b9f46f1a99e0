const MAX_CELL = 60;

const clip = (text: string) => (text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text);

/** Rows as aligned columns under an upper-case header, cells clipped to 60 characters. */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = [headers.map((h) => h.toUpperCase()), ...rows.map((row) => row.map((cell) => clip(cell.replace(/\s+/g, ' '))))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column]?.length ?? 0)));
  return cells.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ').trimEnd()).join('\n') + '\n';
}

/** `1.2 s`, `850 ms`, `2 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
