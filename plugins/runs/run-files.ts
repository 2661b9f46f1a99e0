// The runner's hooks for upload and download actions (runner/file-steps.ts): task files read from the blob store,
// downloads kept as captures of type `download` after their size was checked.
import fsp from 'node:fs/promises';
import type { TaskFiles } from '../../layers/task-files/index.js';
import type { Captures } from '../data/decorators.js';
import type { LiveRun } from './live-run.js';
import type { RunnerHooks } from './runner/index.js';
import type { RunnableTask } from './task-options.js';

/** What upload and download actions need (README "Task files", "Downloads"). */
export interface RunFiles {
  taskFiles: TaskFiles;
  /** A download beyond this many bytes fails its action (DOWNLOAD_MAX_BYTES). */
  downloadMaxBytes: number;
}

export const DEFAULT_DOWNLOAD_MAX_BYTES = 100 * 1024 * 1024;

/** The run's context accepts downloads only when an action may take one (else they would fill the disk unseen). */
export function takesDownloads(task: RunnableTask): boolean {
  return Array.isArray(task.actions) && task.actions.some((action) => action.type === 'download' && !action.disabled);
}

export function runFileHooks(
  files: RunFiles | undefined, captures: Captures, task: RunnableTask, run: LiveRun, saved: string[],
): Pick<RunnerHooks, 'taskFile' | 'saveDownload'> {
  if (!files) return {};
  return {
    async taskFile(name) {
      const found = task.id === undefined ? undefined : await files.taskFiles.read(task.id, name);
      if (!found) throw new Error(`the task has no file named "${name}": upload it in the task's Files`);
      const chunks: Buffer[] = [];
      for await (const chunk of found.stream) chunks.push(chunk as Buffer);
      return { name, mimeType: found.file.contentType, buffer: Buffer.concat(chunks) };
    },
    async saveDownload(filePath, fileName) {
      const { size } = await fsp.stat(filePath);
      if (size > files.downloadMaxBytes) {
        await fsp.rm(filePath, { force: true });
        throw new Error(`the download ${fileName} is ${size} bytes; DOWNLOAD_MAX_BYTES allows ${files.downloadMaxBytes}`);
      }
      const capture = await run.trace.step('capture', () => captures.adoptDownload(run.executionId, filePath, fileName));
      saved.push(capture.name);
      return capture.name;
    },
  };
}
