import type { Schedule, TaskRecord } from '../../kernel/contracts/records.js';
import { Errors } from '../../kernel/errors.js';
import { BUNDLE_FORMAT, BUNDLE_VERSION, type TaskBundle } from './schemas.js';

// The portable task bundle (README, "Export and import"): pure functions, no storage, no HTTP.

/** The schedule as stored, without the live `nextRun` (the receiving scheduler works it out again). */
function portableSchedule(schedule: Schedule): Schedule {
  const { nextRun: _live, ...stored } = schedule;
  return stored;
}

/** Every task, as stored, with its versions and schedule. */
export function bundleOf(tasks: TaskRecord[], exportedAt = new Date().toISOString()): TaskBundle {
  return {
    format: BUNDLE_FORMAT,
    formatVersion: BUNDLE_VERSION,
    exportedAt,
    tasks: tasks.map((task) => {
      const copy: TaskRecord = { ...task, versions: task.versions ?? [] };
      if (task.schedule) copy.schedule = portableSchedule(task.schedule);
      else delete copy.schedule;
      return copy as TaskBundle['tasks'][number];
    }),
  };
}

/** As the tasks API checks it: absolute http(s), unless placeholders make it checkable only at run time. */
function urlProblem(url: string): string | undefined {
  if (url.includes('{$')) return undefined;
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? undefined : 'must be an absolute http or https URL';
  } catch {
    return 'must be an absolute http or https URL';
  }
}

/**
 * What the schema cannot say: ids are unique within the bundle, URLs are usable. Throws VALIDATION_ERROR
 * naming the first offending field, so nothing is written for a bundle that would only half fit.
 */
export function checkBundle(bundle: TaskBundle): void {
  const seen = new Map<string, number>();
  bundle.tasks.forEach((task, index) => {
    const first = seen.get(task.id);
    if (first !== undefined) {
      throw Errors.VALIDATION_ERROR({ message: `body.tasks.${index}.id "${task.id}" appears twice in the bundle (also at body.tasks.${first}.id)` });
    }
    seen.set(task.id, index);
    const problem = urlProblem(task.url);
    if (problem) throw Errors.VALIDATION_ERROR({ message: `body.tasks.${index}.url ${problem}` });
  });
}

/** The records to store: the bundle's tasks as they were, with a history even when the bundle had none. */
export function recordsOf(bundle: TaskBundle): TaskRecord[] {
  return bundle.tasks.map((task) => {
    const record = { ...task, versions: task.versions ?? [] } as TaskRecord;
    if (record.schedule) record.schedule = portableSchedule(record.schedule);
    return record;
  });
}
