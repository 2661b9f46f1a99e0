import { Errors } from '../../kernel/errors.js';
import { RunView } from './run-view.js';

/** A run to here the live view may watch, under the id its caller chose (`liveId`). */
export interface RunToHereView {
  readonly liveId: string;
  readonly view: RunView;
  /** Resolves with the answer's status once it ended. */
  readonly finished: Promise<{ status: string }>;
}

/** How long an ended run to here still answers its status to a live view opened late. */
const ENDED_KEPT_MS = 60_000;

/**
 * The runs to here of this process that asked for a live view. The caller opens the WebSocket while its request
 * runs, possibly before the run registered or after it ended: `when` waits a little for one, and an ended one is
 * kept for a minute so a late viewer learns how it ended.
 */
export class RunToHereViews {
  private readonly open = new Map<string, RunToHereView>();
  private readonly waiting = new Map<string, Set<(run: RunToHereView) => void>>();

  /** Registers a run to here; 400 when another one holds the id. Resolve `end` with its status when it ended. */
  add(liveId: string): { view: RunView; end(status: string): void } {
    if (this.open.has(liveId)) throw Errors.VALIDATION_ERROR({ message: `body.liveId: ${liveId} is in use by another run to here` });
    const view = new RunView();
    let resolve!: (answer: { status: string }) => void;
    const run: RunToHereView = { liveId, view, finished: new Promise((r) => { resolve = r; }) };
    this.open.set(liveId, run);
    for (const wake of this.waiting.get(liveId) ?? []) wake(run);
    this.waiting.delete(liveId);
    return {
      view,
      end: (status) => {
        view.close();
        resolve({ status });
        setTimeout(() => { if (this.open.get(liveId) === run) this.open.delete(liveId); }, ENDED_KEPT_MS).unref();
      },
    };
  }

  /** The run to here with this id, waiting up to `ms` for it to start; undefined when none did. */
  async when(liveId: string, ms: number): Promise<RunToHereView | undefined> {
    const known = this.open.get(liveId);
    if (known) return known;
    return new Promise((resolve) => {
      const wakes = this.waiting.get(liveId) ?? new Set();
      this.waiting.set(liveId, wakes);
      const wake = (run: RunToHereView | undefined) => {
        clearTimeout(timer);
        wakes.delete(wake);
        if (wakes.size === 0 && this.waiting.get(liveId) === wakes) this.waiting.delete(liveId);
        resolve(run);
      };
      const timer = setTimeout(() => wake(undefined), ms);
      wakes.add(wake);
    });
  }
}
