import type { BrowserStorageState, ContextHandle } from '../../kernel/contracts/browser.js';
import type { TaskRecord } from '../../kernel/contracts/records.js';
import type { BrowserStates } from '../../layers/browser-states/browser-states.js';
import type { RunOptions } from './run-service.js';

/** The named browser states a run starts from and saves (README "Browser states"): the run's choice, else the task's. */
export interface RunBrowserState {
  use?: string;
  /** Saved once the run's actions succeeded, before its context closes. */
  saveAs?: string;
  /** Undefined when the storage keeps no browser states: a run naming one then fails, saying so. */
  states?: BrowserStates;
}

const named = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** Undefined when the run neither uses nor saves a state. */
export function runBrowserStateOf(states: BrowserStates | undefined, task: TaskRecord, options: RunOptions): RunBrowserState | undefined {
  const use = named(options.browserState) ?? named(task.browserState);
  const saveAs = named(options.saveBrowserState) ?? named(task.saveBrowserState);
  if (!use && !saveAs) return undefined;
  return { ...(use ? { use } : {}), ...(saveAs ? { saveAs } : {}), states };
}

const NO_STORE = 'the storage keeps no browser states (its provider predates storage contract 2.8)';
const NO_ENGINE = 'this browser engine cannot read or give a context its state (browser contract 1.4)';

/** The state to start from; rejects with why it cannot be had (the run then fails before its browser opens). */
export async function openRunState(chosen: RunBrowserState): Promise<BrowserStorageState | undefined> {
  if (!chosen.use) return undefined;
  if (!chosen.states) throw new Error(NO_STORE);
  return chosen.states.open(chosen.use);
}

/** Checked as the context opens: an engine without `storageState` would silently start the run logged out. */
export function checkEngineTakesStates(context: ContextHandle): void {
  if (!context.storageState) throw new Error(`Browser states cannot be used: ${NO_ENGINE}`);
}

/** Saves the context's cookies and local storage under `saveAs`; resolves to why it could not, never rejects. */
export async function saveRunState(chosen: RunBrowserState, context: ContextHandle, executionId: string): Promise<string | undefined> {
  if (!chosen.saveAs) return undefined;
  try {
    if (!chosen.states) return NO_STORE;
    if (!context.storageState) return NO_ENGINE;
    await chosen.states.save(chosen.saveAs, await context.storageState(), `run:${executionId}`);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
