/** Turns a run's `result.data` into rows and columns, for the table view and the CSV download. */

export interface Table { columns: string[]; rows: unknown[][] }

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function toTable(data: unknown): Table {
  if (data === undefined || data === null) return { columns: [], rows: [] };
  const items = Array.isArray(data) ? data : [data];
  if (items.length > 0 && items.every(isRecord)) {
    const columns: string[] = [];
    for (const item of items) for (const key of Object.keys(item)) if (!columns.includes(key)) columns.push(key);
    return { columns, rows: items.map((item) => columns.map((c) => (item as Record<string, unknown>)[c])) };
  }
  return { columns: ['value'], rows: items.map((item) => [item]) };
}

export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** RFC 4180 CSV; cells that a spreadsheet would run as a formula are prefixed with a quote. */
export function toCsv(table: Table): string {
  const escape = (value: unknown) => {
    let text = cellText(value);
    if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^[+-]?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
    return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [table.columns, ...table.rows].map((row) => row.map(escape).join(',')).join('\r\n') + '\r\n';
}

export function download(filename: string, content: string, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
