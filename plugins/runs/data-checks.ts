import type { Logger } from '../../kernel/contracts/logger.js';
import type { ExecutionStore } from '../../kernel/contracts/storage.js';
import type { ExecutionRecord, TaskRecord } from '../../kernel/contracts/records.js';
import type { CompareOption } from '../../layers/run-intelligence/compare-option.js';
import type { ExpectOption } from '../../layers/run-intelligence/expect-option.js';
import { checkExpectations, type Violation } from '../../layers/run-intelligence/expectations.js';
import { diffResults, type ResultDiff } from '../../layers/run-intelligence/result-diff.js';
import { rowsOf } from '../../layers/run-intelligence/rows.js';
import type { BrowseOutcome } from './browse-run.js';
import type { LiveRun } from './live-run.js';
import { fullResult } from '../../layers/stored-results/read-result.js';
import { compareShots, type ShotComparison, type ShotFiles } from './screenshot-checks.js';

/** What the checks add to the execution record (README "Run intelligence"). */
export interface DataFindings {
  /** The violated expectations (outcome invalid_data). */
  violations?: Violation[];
  /** Whether the rows (or a compared screenshot) differ from the previous successful run's; absent on a first run or without `compare`. */
  changed?: boolean;
  /** The screenshots compared (`compare.screenshots`), also on a first run: the next run's baseline. */
  screenshots?: ShotComparison[];
  diff?: ResultDiff;
  /** The previous successful run compared with. */
  comparedWith?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A successful run's data against its task's `expect` and `compare` (both validated when the task was saved),
 * with the task's previous successful run as the baseline. A violated expectation turns `outcome` into
 * invalid_data, and its status into error unless `expect.onInvalid` is `warn` (changed in place). Resolves to
 * what to store; never throws (a store that does not answer leaves drift and the diff out, with a log line).
 * `files`: where screenshots are compared (`compare.screenshots`); absent: they are not.
 */
export async function checkRunData(store: ExecutionStore, run: LiveRun, task: TaskRecord, outcome: BrowseOutcome, logger: Logger, files?: ShotFiles): Promise<DataFindings> {
  const expect = isObject(task.expect) ? task.expect as ExpectOption : undefined;
  const compare = isObject(task.compare) ? task.compare as CompareOption : undefined;
  if (outcome.status !== 'success' || (!expect && !compare)) return {};
  const needsBaseline = compare !== undefined || expect?.drift !== undefined;
  let previous: ExecutionRecord | undefined;
  let baselineKnown = !needsBaseline;
  if (needsBaseline) {
    try {
      // The current run is still `running`: the newest success is the one before it. A failed run never is.
      const [last] = await store.list({ taskId: task.id, status: 'success', limit: 1 });
      // A large result of the previous run is read from where it is stored apart (README "Large results").
      previous = last?.resultStoredApart && files ? { ...last, result: await fullResult(files.blob, last) } : last;
      baselineKnown = true;
    } catch (error) {
      logger.warn({ err: error, executionId: run.executionId }, 'the previous successful run could not be read: no drift check nor diff');
      run.log('warn', 'the previous successful run could not be read: no drift check nor diff for this run');
    }
  }
  const data = outcome.result.data;
  const findings: DataFindings = {};
  if (expect) {
    const baseline = previous ? { rows: rowsOf(previous.result.data).length } : undefined;
    const violations = checkExpectations(baselineKnown ? expect : { ...expect, drift: undefined }, data, baseline);
    if (violations.length > 0) {
      findings.violations = violations;
      const summary = violations.slice(0, 3).map((v) => v.message).join('; ') + (violations.length > 3 ? `; and ${violations.length - 3} more` : '');
      const fail = expect.onInvalid !== 'warn';
      run.log(fail ? 'error' : 'warn', `the data broke ${violations.length} expectation(s): ${summary}`);
      outcome.outcome = 'invalid_data';
      if (fail) {
        outcome.status = 'error';
        outcome.result.error = { message: `The data broke ${violations.length} expectation(s): ${summary}` };
        return findings; // a failed run is no success to compare
      }
    }
  }
  if (compare && baselineKnown && previous) {
    const diff = diffResults(previous.result.data, data, compare)!;
    Object.assign(findings, { changed: diff.changed, diff, comparedWith: previous.executionId });
    const { added, removed, changed } = diff.counts;
    run.log('info', diff.changed ? `the data changed since ${previous.executionId}: ${added} added, ${removed} removed, ${changed} changed` : `the data is unchanged since ${previous.executionId}`);
  } else if (compare && baselineKnown) {
    run.log('info', 'the first successful run: nothing to compare');
  }
  if (compare?.screenshots && baselineKnown && files) {
    findings.screenshots = await compareShots(files, run, compare.screenshots, outcome, previous);
    if (findings.screenshots.some((shot) => shot.changed)) findings.changed = true;
  }
  return findings;
}
