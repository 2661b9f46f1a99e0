// The action runner: runs a task's actions (decisions.md, "Actions") on a page the caller opened and
// navigated, then its extraction script. The semantics chosen where decisions.md is silent are written at
// the top of each file: template.ts (placeholders), program.ts (blocks and checks), steps.ts (page
// actions and limits), page-scripts.ts (code in the page), run-actions.ts (flow, logs, set, loops, stop).
export { runActions } from './run-actions.js';
export { ActionError, ExtractionError, InvalidUrlError, type RunnerHooks, type RunnerInput, type RunnerOutput, type RunnerWatch } from './types.js';
export { DEFAULT_TIMEOUTS, messageOf as cleanErrorMessage } from './steps.js';
export type { LoopScope } from './template.js';
export type { RunnerHealing } from './healing-step.js';
