import { Readable, pipeline, type Transform } from 'node:stream';
import { Errors } from '../../kernel/errors.js';
import type { TaskRecord } from '../../kernel/contracts/records.js';
import type { KernelServices } from '../../kernel/services.js';
import { applyImport, type ImportPlan } from './apply-import.js';
import { executionRecords, firstPageRead, withFullResults } from './execution-pages.js';
import { EXPORT_FORMATS } from './export-formats.js';
import type { ConflictPolicy, ExportQuery, TaskBundle } from './schemas.js';
import { bundleOf, checkBundle, recordsOf } from './task-bundle.js';

/** At most this many conflicting ids are named in an IMPORT_CONFLICT answer. */
const LISTED_CONFLICTS = 50;

export interface ExecutionExport {
  contentType: string;
  filename: string;
  stream: Readable;
}

export interface ImportOutcome {
  created: string[];
  replaced: string[];
  skipped: string[];
  /** What was written, with the record each replaced (for the scheduler). */
  written: Array<{ next: TaskRecord; previous?: TaskRecord }>;
}

const stamp = (at: Date) => at.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');

/** Runs async sections one after another: two imports must not check conflicts against each other's half. */
function createSerial() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(section: () => Promise<T>): Promise<T> => {
    const result = tail.then(section);
    tail = result.catch(() => undefined);
    return result;
  };
}

/** Export and import without HTTP. */
export function createPortabilityService(services: KernelServices) {
  const { storage } = services;
  const log = services.logger.child({ plugin: 'portability' });
  const serial = createSerial();

  return {
    /** The matching executions as a stream in `query.format`; storage is read page by page as the client reads. */
    async exportExecutions(query: ExportQuery): Promise<ExecutionExport> {
      const { format: name, taskId, status, trigger, outcome, from, to } = query;
      if (from !== undefined && to !== undefined && Date.parse(from) > Date.parse(to)) {
        throw Errors.VALIDATION_ERROR({ message: `querystring.from (${from}) is after querystring.to (${to})` });
      }
      const format = EXPORT_FORMATS[name];
      const records = await firstPageRead(withFullResults(services.blob, executionRecords(storage.executions, { taskId, status, trigger, outcome, from, to })));
      const source = Readable.from(records);
      const stages = await format.stages();
      const streams: Array<Readable | Transform> = [source, ...stages];
      pipeline(streams, (error) => {
        // A client that goes away ends the pipeline early: that is not a failure of the export.
        if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') log.error({ err: error, format: name }, 'execution export failed mid-stream');
      });
      return {
        contentType: format.contentType,
        filename: `taskloom-executions-${stamp(new Date())}.${format.extension}`,
        stream: stages[stages.length - 1]!,
      };
    },

    async exportTasks(): Promise<{ bundle: TaskBundle; filename: string }> {
      const at = new Date();
      return { bundle: bundleOf(await storage.tasks.list(), at.toISOString()), filename: `taskloom-tasks-${stamp(at)}.json` };
    },

    /** Validates everything, then writes all or nothing. */
    importTasks: (bundle: TaskBundle, onConflict: ConflictPolicy) => serial(async (): Promise<ImportOutcome> => {
      checkBundle(bundle);
      const plan: ImportPlan = { create: [], replace: [] };
      const skipped: string[] = [];
      const conflicts: string[] = [];
      const stored = new Map((await storage.tasks.list()).map((task) => [task.id, task]));
      for (const next of recordsOf(bundle)) {
        const previous = stored.get(next.id);
        if (!previous) plan.create.push(next);
        else if (onConflict === 'replace') plan.replace.push({ next, previous });
        else if (onConflict === 'skip') skipped.push(next.id);
        else conflicts.push(next.id);
      }
      if (conflicts.length > 0) {
        const listed = conflicts.slice(0, LISTED_CONFLICTS).join(', ');
        const more = conflicts.length > LISTED_CONFLICTS ? ` and ${conflicts.length - LISTED_CONFLICTS} more` : '';
        throw Errors.IMPORT_CONFLICT({ count: conflicts.length, ids: listed + more });
      }
      await applyImport(storage.tasks, plan, log);
      const outcome: ImportOutcome = {
        created: plan.create.map((task) => task.id),
        replaced: plan.replace.map(({ next }) => next.id),
        skipped,
        written: [...plan.create.map((next) => ({ next })), ...plan.replace],
      };
      log.info({ created: outcome.created.length, replaced: outcome.replaced.length, skipped: skipped.length }, 'tasks imported');
      return outcome;
    }),
  };
}

export type PortabilityService = ReturnType<typeof createPortabilityService>;
