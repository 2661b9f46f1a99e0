import { ExtractOption } from './extract-option.js';
import { mappingProblems } from './mapping-problems.js';

/** The fields of a task these rules read (stored, sent, or a stored one with a patch applied). */
export interface ExtractingTask {
  mode?: unknown;
  actions?: unknown;
  extract?: unknown;
  extractionScript?: unknown;
}

const hasScript = (task: ExtractingTask) => typeof task.extractionScript === 'string' && task.extractionScript.trim() !== '';
const enabledActions = (task: ExtractingTask) =>
  Array.isArray(task.actions) ? task.actions.filter((action: { disabled?: unknown }) => action?.disabled !== true).length : 0;

/**
 * Why a task's extraction cannot run as configured (README "Field mapping", "Browserless mode"), one line each, or
 * [] when it can: a bad mapping, a mapping and a script both, or a task in mode http with actions or a script (that
 * mode runs no browser and no JavaScript). Checked on save (400) and again when a run starts (imported tasks).
 */
export async function extractionProblems(task: ExtractingTask): Promise<string[]> {
  const problems: string[] = [];
  if (task.extract !== undefined && task.extract !== null) {
    // TypeBox's value functions load with the first task that has a mapping (the service starts without them).
    const { Value } = await import('typebox/value');
    if (!Value.Check(ExtractOption, task.extract)) problems.push('extract must be { list?, fields: [{ name, selector?, attribute?, type? }] }');
    else problems.push(...await mappingProblems(task.extract));
    if (hasScript(task)) problems.push('a task has either extract (a field mapping) or an extractionScript, not both: convert the mapping to a script (POST /api/tasks/extract/script) or drop one');
  }
  if (task.mode === 'http') {
    const actions = enabledActions(task);
    if (actions > 0) problems.push(`mode http runs no browser, so it cannot run actions (this task has ${actions}): remove them, or use mode scrape or agent`);
    if (hasScript(task)) problems.push('mode http runs no JavaScript, so it cannot run an extractionScript: use extract (a field mapping) instead, or mode scrape');
  }
  return problems;
}
