import type { RunResult } from '../../api/types';

/** The action a run failed at (0-based, as the API counts) and its error. */
export interface ActionFailure {
  index: number;
  message: string;
}

/** The failed action of a run's result; null when it did not fail at an action. */
export function failureOf(result: RunResult | undefined): ActionFailure | null {
  const error = result?.error;
  return error && typeof error.actionIndex === 'number' ? { index: error.actionIndex, message: error.message } : null;
}
