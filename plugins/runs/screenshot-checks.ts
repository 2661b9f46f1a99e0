import type { Readable } from 'node:stream';
import { capitalActionLabel } from '../../layers/action-label/action-label.js';
import type { BlobStore } from '../../kernel/contracts/blob.js';
import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import type { ScreenshotCompare } from '../../layers/run-intelligence/compare-option.js';
import { diffScreenshots } from '../../layers/run-intelligence/screenshot-diff.js';
import type { ShotComparison } from '../../layers/run-intelligence/shot-comparison.js';
import type { Captures } from '../data/decorators.js';
import type { BrowseOutcome } from './browse-run.js';
import type { LiveRun } from './live-run.js';

export type { ShotComparison };

/** Where the screenshots are read and the diff images written. */
export interface ShotFiles {
  blob: BlobStore;
  captures: Captures;
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * This run's screenshots of the compared actions against the previous successful run's (its stored
 * `screenshots`; undefined: there is none). Diff images are saved as captures of this run (added to
 * `outcome.result.captures`). Never throws: a screenshot that cannot be read or decoded gets a `note`.
 */
export async function compareShots(files: ShotFiles, run: LiveRun, option: ScreenshotCompare, outcome: BrowseOutcome, previous: ExecutionRecord | undefined): Promise<ShotComparison[]> {
  const wanted = option.actions ? new Set(option.actions) : undefined;
  const before = Array.isArray(previous?.screenshots) ? previous.screenshots as ShotComparison[] : [];
  const seen = new Map<number, number>();
  const compared: ShotComparison[] = [];
  for (const shot of outcome.shots ?? []) {
    if (wanted && !wanted.has(shot.actionIndex)) continue;
    const repeat = seen.get(shot.actionIndex) ?? 0;
    seen.set(shot.actionIndex, repeat + 1);
    const entry: ShotComparison = { actionIndex: shot.actionIndex, capture: shot.capture };
    compared.push(entry);
    if (!previous) continue; // the first successful run: the baseline of the next
    const baseline = before.filter((b) => b.actionIndex === shot.actionIndex)[repeat]?.capture;
    if (!baseline) {
      entry.note = `the previous successful run (${previous.executionId}) kept no screenshot of this action to compare`;
      continue;
    }
    entry.baseline = baseline;
    try {
      const [old, now] = await Promise.all([files.blob.get(baseline), files.blob.get(shot.capture)]);
      if (!old || !now) {
        old?.stream.destroy();
        now?.stream.destroy();
        entry.note = `the screenshot ${old ? shot.capture : baseline} is no longer kept`;
        continue;
      }
      const found = diffScreenshots(await bytesOf(old.stream), await bytesOf(now.stream), option.pixelThreshold);
      const image = await files.captures.save(run.executionId, found.image, 'png');
      outcome.result.captures = [...(outcome.result.captures ?? []), image.name];
      Object.assign(entry, { differentPct: found.differentPct, diff: image.name, changed: found.sizes !== undefined || found.differentPct > (option.minChangedPct ?? 0) });
      if (found.sizes) entry.sizes = found.sizes;
    } catch (error) {
      entry.note = `the screenshots could not be compared: ${messageOf(error)}`;
    }
  }
  for (const entry of compared) {
    if (entry.note) run.log('warn', `${capitalActionLabel(entry.actionIndex, 'screenshot')}: ${entry.note}`);
    else if (entry.diff) {
      const what = entry.changed ? 'changed' : 'unchanged';
      run.log('info', `${capitalActionLabel(entry.actionIndex, 'screenshot')} ${what}: ${entry.differentPct}% of pixels differ${entry.sizes ? ` (sizes ${entry.sizes})` : ''} (diff ${entry.diff})`);
    }
  }
  return compared;
}
