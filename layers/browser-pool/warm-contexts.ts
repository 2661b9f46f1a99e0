import type { BrowserHandle, BrowserPage, ContextHandle, ContextOptions } from '../../kernel/contracts/browser.js';
import type { Logger } from '../../kernel/contracts/logger.js';

/** What a context must be made with to serve a run: what cannot be changed once it is open. */
export interface WarmFit {
  viewport?: { width: number; height: number };
  userAgent?: string;
}

export interface WarmContextsOptions {
  /** At most this many warm contexts, less the runs holding contexts (one per free run slot). */
  slots: number;
  /** Runs holding (or opening) a context now. */
  busy(): number;
  /** The browser to make them on when it is up; undefined: none is made (a browser is never launched for them). */
  browser(): BrowserHandle | undefined;
  /** What every context gets beside the fit (the run budget's limits), with where its failures go. */
  contextOptions(end: (error: Error) => void): Pick<ContextOptions, 'maxResponseBytes' | 'onFailure'>;
  /** Closes a context that no run took, with the pool's kill timer. */
  discard(handle: BrowserHandle, context: ContextHandle): Promise<void>;
  /**
   * After this long without a run starting or ending (ms) the warm contexts are closed, so an idle service holds
   * no more than it did without them; the next run's end makes them again.
   */
  idleMs: number;
  logger: Logger;
}

/** A warm context handed to a run: its first `newPage` is the page opened ahead. */
export interface TakenContext {
  handle: BrowserHandle;
  context: ContextHandle;
  /** Where the context's failures (a crashed page, a response too large) go from now on: the run's end. */
  own(end: (error: Error) => void): void;
}

interface Slot {
  key: string;
  fit: WarmFit;
  handle: BrowserHandle;
  made: Promise<{ context: ContextHandle; page: BrowserPage }>;
  ready: boolean;
  owner?: (error: Error) => void;
}

/**
 * Fresh, unused contexts made ahead on the warm browser, each with a blank page open (a page is most of what a
 * context costs: its renderer process), so a run does not wait for one. Each serves one run and is closed with
 * it, never reused, so none holds anything of a previous run; cookies are added when a run takes one. A run
 * whose options cannot be met after creation (a proxy, a recording) or differ from those the warm ones were made
 * with opens its own, as before, and the next ones are made with its viewport and user agent.
 */
export class WarmContexts {
  private slots: Slot[] = [];
  /** The fit new warm contexts are made with: the last run's that could have used one. */
  private fit: WarmFit = {};
  private making = false;
  private closed = false;
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly options: WarmContextsOptions) {}

  /** Warm contexts made or being made, not yet taken. */
  count(): number {
    return this.slots.length;
  }

  /**
   * A warm context on `handle` made with `fit`, when one is ready or being made (then it is awaited: sooner
   * than a new one); undefined otherwise, and the next ones are made with `fit`.
   */
  async take(handle: BrowserHandle, fit: WarmFit): Promise<TakenContext | undefined> {
    this.touch();
    this.prune();
    const key = keyOf(fit);
    const matching = this.slots.filter((slot) => slot.handle === handle && slot.key === key);
    const slot = matching.find((s) => s.ready) ?? matching[0];
    if (!slot) {
      this.follow(fit, key);
      return undefined;
    }
    this.slots.splice(this.slots.indexOf(slot), 1);
    let made: Awaited<Slot['made']>;
    try {
      made = await slot.made;
    } catch {
      return undefined;
    }
    let first: BrowserPage | undefined = made.page;
    const { context } = made;
    return {
      handle,
      own: (end) => { slot.owner = end; },
      context: {
        newPage: async () => {
          const page = first;
          first = undefined;
          return page ?? context.newPage();
        },
        cookies: () => context.cookies(),
        addCookies: context.addCookies && ((cookies) => context.addCookies!(cookies)),
        storageState: context.storageState && (() => context.storageState!()),
        close: () => context.close(),
      },
    };
  }

  /** Makes warm contexts, one at a time, until every free slot has one (unless closed for idleness since). Called after each run. */
  refill(): void {
    if (this.closed) return;
    this.touch();
    this.fill();
  }

  private fill(): void {
    if (this.making || this.closed || !this.idle) return;
    this.prune();
    const handle = this.options.browser();
    const wanted = this.options.slots - this.options.busy();
    if (!handle || this.slots.length >= wanted) return;
    this.making = true;
    const slot = this.make(handle, this.fit);
    this.slots.push(slot);
    void slot.made.then(
      () => { slot.ready = true; },
      (error: unknown) => {
        this.remove(slot);
        // Not retried at once (a browser that cannot make one now would loop): the next run's end tries again.
        this.options.logger.debug({ err: error }, 'making a warm browser context failed');
      },
    ).finally(() => {
      this.making = false;
      if (slot.ready) this.fill();
    });
  }

  /** Closes every warm context (the pool is closing); none is made after. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idle);
    await this.closeAll();
  }

  /** Runs come and go: the warm contexts stay until `idleMs` pass without either. */
  private touch(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      this.idle = undefined;
      if (this.slots.length) this.options.logger.debug({ warm: this.slots.length }, 'closing the warm browser contexts: no run for a while');
      void this.closeAll();
    }, this.options.idleMs);
    this.idle.unref();
  }

  private async closeAll(): Promise<void> {
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((slot) => this.dispose(slot)));
  }

  private make(handle: BrowserHandle, fit: WarmFit): Slot {
    const slot: Slot = { key: keyOf(fit), fit, handle, ready: false, made: undefined! };
    // Until a run takes it, a failure (its page crashed) only means it is thrown away.
    const end = (error: Error) => {
      if (slot.owner) slot.owner(error);
      else if (this.remove(slot)) void this.dispose(slot).then(() => this.fill());
    };
    slot.made = (async () => {
      const context = await handle.newContext({ ...fit, ...this.options.contextOptions(end) });
      try {
        return { context, page: await context.newPage() };
      } catch (error) {
        await this.options.discard(handle, context);
        throw error;
      }
    })();
    return slot;
  }

  /** The next warm contexts are made for runs like this one; one made for others gives way when all slots are full. */
  private follow(fit: WarmFit, key: string): void {
    if (key === keyOf(this.fit)) return;
    this.fit = fit;
    const other = this.slots.find((slot) => slot.ready && slot.key !== key);
    if (other && this.remove(other)) void this.dispose(other);
  }

  /** Forgets warm contexts whose browser is gone (they went with it). */
  private prune(): void {
    this.slots = this.slots.filter((slot) => slot.handle.isConnected());
  }

  private remove(slot: Slot): boolean {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    return index >= 0;
  }

  private async dispose(slot: Slot): Promise<void> {
    const made = await slot.made.catch(() => undefined);
    if (made && slot.handle.isConnected()) await this.options.discard(slot.handle, made.context);
  }
}

/**
 * What a warm context for a run with `options` must have been made with; undefined when none can serve it: its
 * own proxy (a route of its own, set when the context is made), a recording (attached to its first page), a
 * trace (started with the context) or downloads (accepted or not when the context is made).
 */
export function warmFitOf(options: Pick<ContextOptions, 'viewport' | 'userAgent' | 'proxy' | 'recordVideoDir' | 'tracePath' | 'acceptDownloads' | 'storageState'>): WarmFit | undefined {
  // A browser state is seeded as the context is made (local storage before any page): never into a warm one.
  if (options.proxy || options.recordVideoDir || options.tracePath || options.acceptDownloads || options.storageState) return undefined;
  return { ...(options.viewport ? { viewport: options.viewport } : {}), ...(options.userAgent ? { userAgent: options.userAgent } : {}) };
}

function keyOf(fit: WarmFit): string {
  return JSON.stringify([fit.viewport?.width, fit.viewport?.height, fit.userAgent]);
}
