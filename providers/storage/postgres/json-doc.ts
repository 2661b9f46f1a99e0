/** An ISO timestamp as a Date for a timestamptz column; null when it is missing or not a date. */
export function timestampOf(value: unknown): Date | null {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? new Date(ms) : null;
}
