// How a person reads an action's place in a task. The API's `actionIndex` counts from 0 (as the spec's
// generate-selector does); everything written for a person (log lines, error messages, the CLI, the MCP
// server, the dashboard) counts from 1, through these helpers only. Imports nothing: the dashboard bundles it.

/** The number a person reads for the action at 0-based `index`: `index + 1`. */
export function actionNumber(index: number): number {
  return index + 1;
}

/** `action 2 (click)` for the action at index 1 of type click; `action 2` without a type. */
export function actionLabel(index: number, type?: string): string {
  return `action ${actionNumber(index)}${type ? ` (${type})` : ''}`;
}

/** actionLabel at the start of a sentence: `Action 2 (click)`. */
export function capitalActionLabel(index: number, type?: string): string {
  const label = actionLabel(index, type);
  return label[0]!.toUpperCase() + label.slice(1);
}

/**
 * A run's error as a person reads it: its message, which names the action already when the runner wrote it
 * (`Action 2 (click): ...`); any other message with an `actionIndex` gets the action put in front.
 */
export function runErrorText(error: { message: string; actionIndex?: number }): string {
  if (error.actionIndex === undefined) return error.message;
  const label = actionLabel(error.actionIndex);
  const named = error.message.toLowerCase().startsWith(label) && /^[ :(]/.test(error.message.slice(label.length));
  return named ? error.message : `${capitalActionLabel(error.actionIndex)}: ${error.message}`;
}
