// Files in and out of the page (README "Task files", "Downloads"). Decisions:
// - upload: `selector` is an `<input type=file>` (it may be hidden, as styled inputs are); `value` names task files,
//   separated by commas (placeholders filled first). Each is read from the task's files; one missing fails the
//   action naming it. Several names need an input with `multiple`.
// - download: clicks `selector` and waits for the download it starts (default 60 s); the file is kept as a
//   capture of type `download` (its size checked against DOWNLOAD_MAX_BYTES once it arrived).
import type { Step, StepEnv, StepResult } from './steps.js';

export const FILE_TIMEOUTS = { upload: 10_000, download: 60_000 } as const;

export function isFileStep(type: string): type is keyof typeof FILE_TIMEOUTS {
  return type === 'upload' || type === 'download';
}

/** The task file names an upload's `value` lists. */
export function uploadNames(value: string | undefined): string[] {
  return (value ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
}

export async function runFileStep(step: Step, env: StepEnv, native: (work: Promise<void>, what: string) => Promise<void>): Promise<StepResult> {
  const { page, hooks } = env;
  const selector = step.selector ?? '';
  if (step.type === 'upload') {
    const names = uploadNames(step.value);
    if (names.length === 0) throw new Error('"upload" needs a value: the names of task files, separated by commas');
    if (!page.setInputFiles) throw new Error('this browser engine cannot upload files');
    if (!hooks.taskFile) throw new Error('task files are only uploaded by task runs (not by previews such as run to here)');
    const files = await Promise.all(names.map((name) => hooks.taskFile!(name)));
    await native(page.setInputFiles(selector, files, step.timeoutMs), `selector "${selector}" to set files on`);
    return {};
  }
  if (!page.download) throw new Error('this browser engine cannot keep downloads');
  if (!hooks.saveDownload) throw new Error('downloads are only kept by task runs (not by previews such as run to here)');
  let arrived: { name: string; path: string } | undefined;
  await native(page.download(selector, step.timeoutMs).then((file) => { arrived = file; }), `a download after clicking "${selector}"`);
  const capture = await hooks.saveDownload(arrived!.path, arrived!.name);
  hooks.log('info', `downloaded ${arrived!.name} (${capture})`);
  return { capture };
}
