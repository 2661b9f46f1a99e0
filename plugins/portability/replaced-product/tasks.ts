// The replaced product's task export (a JSON array of its tasks) as a taskloom bundle (README "Moving tasks from
// the product we replace"). Pure: the import checks and writes the bundle as any other, all or nothing.
import crypto from 'node:crypto';
import type { Action } from '../../../kernel/contracts/records.js';
import { Errors } from '../../../kernel/errors.js';
import { BUNDLE_FORMAT, BUNDLE_VERSION, MAX_BUNDLE_TASKS, type TaskBundle } from '../schemas.js';
import { mapActions } from './actions.js';
import { extractionScript } from './code.js';

/** What the answer tells about each converted task: what was left out or changed without changing its data. */
export interface ConversionReport {
  taskId: string;
  name: string;
  notes: string[];
}

/** Options of the product that change how a run looks, not what it gives: left out, with a note when set. */
const COSMETIC = ['rotateUserAgents', 'rotateViewport', 'humanTyping', 'stealth', 'includeShadowDom', 'disableRecording', 'statelessExecution'];
/** Fields the product keeps for itself: left out without a note. */
const PRIVATE = new Set(['last_opened', 'versions', 'createdAt', 'updatedAt', 'id', 'name', 'description', 'url', 'mode', 'wait', 'selector',
  'rotateProxies', 'actions', 'variables', 'extractionScript', 'extractionFormat', ...COSMETIC]);
const MODES = new Set(['agent', 'scrape', 'headful']);

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/** True for a body that is the product's export rather than a taskloom bundle. */
export const isProductExport = (body: unknown): body is unknown[] => Array.isArray(body);

/** `{ name: { type, value } }` (the product's variables) or plain values → plain values. */
function variablesOf(raw: unknown, problems: string[]): Record<string, unknown> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) {
    problems.push('variables is not an object');
    return undefined;
  }
  const out: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(raw)) {
    if (!isObject(entry) || !('value' in entry)) {
      out[name] = entry;
      continue;
    }
    const { type, value } = entry;
    if (type === 'number') out[name] = value === '' || value === null ? null : Number(value);
    else if (type === 'boolean') out[name] = value === true || value === 'true';
    else out[name] = value === null || value === undefined ? '' : typeof value === 'string' ? value : String(value);
  }
  return out;
}

function convertTask(raw: unknown, at: string): { task?: TaskBundle['tasks'][number]; report: ConversionReport; problems: string[] } {
  const problems: string[] = [];
  const notes: string[] = [];
  const t = isObject(raw) ? raw : {};
  if (!isObject(raw)) problems.push('not an object');
  const given = typeof t.id === 'string' && t.id.trim() ? t.id.trim() : undefined;
  const id = given ?? `task_${crypto.randomBytes(12).toString('base64url')}`;
  const url = typeof t.url === 'string' ? t.url.trim() : '';
  const name = (typeof t.name === 'string' && t.name.trim() ? t.name.trim() : url || 'Imported task').slice(0, 200);
  const mode = t.mode === undefined ? 'agent' : String(t.mode);
  if (!MODES.has(mode)) problems.push(`mode "${mode}" is not agent, scrape or headful`);
  if (!url) problems.push('it has no url');
  if (typeof t.selector === 'string' && t.selector.trim()) problems.push(`its selector "${t.selector.trim()}" (the part of the page to keep) has no taskloom equivalent: read that part in the extraction script`);
  if (t.extractionFormat !== undefined && t.extractionFormat !== 'json') problems.push(`extractionFormat "${String(t.extractionFormat)}" has no taskloom equivalent (data is JSON)`);
  const mapped = mapActions(t.actions);
  problems.push(...mapped.problems);
  notes.push(...mapped.notes);
  const actions: Action[] = [];
  const wait = typeof t.wait === 'number' ? t.wait : Number(t.wait ?? 0);
  if (Number.isFinite(wait) && wait > 0) {
    if (mode === 'scrape') notes.push(`the wait of ${wait} s after loading is not kept (scrape mode runs no actions)`);
    else actions.push({ type: 'wait', value: String(Math.round(wait * 1000)) });
  }
  actions.push(...mapped.actions);
  for (const option of COSMETIC) {
    if (t[option] === true || (isObject(t[option]) && Object.values(t[option]).some((v) => v === true))) notes.push(`${option} is not kept`);
  }
  const unknown = Object.keys(t).filter((key) => !PRIVATE.has(key));
  if (unknown.length > 0) notes.push(`ignored: ${unknown.join(', ')}`);
  if (typeof t.extractionScript === 'string' && !t.extractionScript.trim() && mode === 'scrape') notes.push('no extraction script: the run gives no data');
  const variables = variablesOf(t.variables, problems);
  const report: ConversionReport = { taskId: id, name, notes };
  if (problems.length > 0) return { report: { ...report, taskId: given ?? 'none' }, problems };
  const task: TaskBundle['tasks'][number] = { id, name, url, mode, actions, createdAt: at, updatedAt: at, versions: [] };
  if (typeof t.description === 'string' && t.description.trim()) task.description = t.description;
  if (variables && Object.keys(variables).length > 0) task.variables = variables;
  if (typeof t.extractionScript === 'string' && t.extractionScript.trim()) task.extractionScript = extractionScript(t.extractionScript);
  if (t.rotateProxies === true) task.rotateProxies = true;
  return { task, report, problems };
}

/**
 * The export as a bundle, with a report per task. Any task holding something taskloom cannot run as written
 * throws IMPORT_UNMAPPED naming, per task, every such thing: nothing is imported then.
 */
export function bundleFromProductExport(list: unknown[], at = new Date().toISOString()): { bundle: TaskBundle; reports: ConversionReport[] } {
  if (list.length > MAX_BUNDLE_TASKS) throw Errors.VALIDATION_ERROR({ message: `body holds ${list.length} tasks; at most ${MAX_BUNDLE_TASKS} are imported at once` });
  const converted = list.map((raw) => convertTask(raw, at));
  const failed = converted
    .map((c, index) => ({ ...c, index }))
    .filter((c) => c.problems.length > 0);
  if (failed.length > 0) {
    const list = failed.map((c) => `task ${c.index + 1} "${c.report.name}" (id ${c.report.taskId}): ${c.problems.join('; ')}`).join(' | ');
    throw Errors.IMPORT_UNMAPPED({ count: failed.length, total: converted.length, list });
  }
  return {
    bundle: { format: BUNDLE_FORMAT, formatVersion: BUNDLE_VERSION, exportedAt: at, tasks: converted.map((c) => c.task!) },
    reports: converted.map((c) => c.report),
  };
}
