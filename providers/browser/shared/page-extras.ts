// What both engines share for the contract's 1.3 page members: finding an option, counting main-frame
// navigations, polling for a condition, and the clock a frame chain is resolved within.

/**
 * Runs in the page on a `<select>`: the index of the option whose value is `option`, else of the first whose
 * label (trimmed) is; -1 when none is; -2 when the element is not a select. A plain function: both engines send
 * its source to the page.
 */
export function optionIndex(element: Element, option: string): number {
  if (!(element instanceof HTMLSelectElement)) return -2;
  const options = [...element.options];
  const byValue = options.findIndex((o) => o.value === option);
  return byValue >= 0 ? byValue : options.findIndex((o) => o.label.trim() === option.trim());
}

/** The error for `optionIndex`'s misses. */
export function optionError(selector: string, option: string, index: number): Error {
  return new Error(index === -2 ? `selector "${selector}" is not a <select>` : `selector "${selector}" has no option with the value or label "${option}"`);
}

/** Counts the main frame's navigations of a page that emits `framenavigated` with the frame (both engines do). */
export function countNavigations<F>(page: { on(event: 'framenavigated', listener: (frame: F) => void): unknown; mainFrame(): F }): () => number {
  let count = 0;
  page.on('framenavigated', (frame) => { if (frame === page.mainFrame()) count++; });
  return () => count;
}

/** Resolves once `ready()` holds, checking every 50 ms; rejects with a TimeoutError naming `what` after `timeoutMs` (0: never). */
export async function until(ready: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : Infinity;
  while (!(await ready())) {
    if (Date.now() >= deadline) {
      const error = new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
      error.name = 'TimeoutError';
      throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Milliseconds left before `deadline` for the next step of a chain, at least 1 (0 stays 0: no limit). */
export function timeLeft(deadline: number): number {
  return deadline === Infinity ? 0 : Math.max(1, deadline - Date.now());
}

/** Why a frame chain stopped: its selector matched no iframe. */
export function notAFrame(selector: string): Error {
  return new Error(`selector "${selector}" is not an iframe with a document`);
}

type RequestEvents = 'request' | 'requestfinished' | 'requestfailed';

/** Keeps count of a page's requests in flight; `quietFor()` is how long (ms) it has had none (0 while it has). */
export function trackRequests(page: { on(event: RequestEvents, listener: (request: object) => void): unknown }): () => number {
  const open = new Set<object>();
  let quietSince = Date.now();
  page.on('request', (request) => { open.add(request); });
  const done = (request: object) => {
    if (open.delete(request) && open.size === 0) quietSince = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return () => (open.size === 0 ? Date.now() - quietSince : 0);
}

/** An iframe's element handle, as both engines offer it. */
interface FrameElement<F> {
  contentFrame(): Promise<F | null | undefined>;
  evaluate<R>(fn: (element: Element) => R): Promise<R>;
}

/**
 * The document of the iframe `element`, once it holds the page its `src` names: until then the frame is the
 * initial about:blank one, which a page of another origin replaces by a frame of its own process (an action on
 * the first one then fails as "detached"). An iframe without a `src` is taken as it is.
 */
export async function loadedFrame<F extends { url(): string; isDetached?(): boolean }>(
  element: FrameElement<F>, selector: string, timeoutMs: number,
): Promise<F> {
  let frame = await element.contentFrame();
  if (!frame) throw notAFrame(selector);
  const wantsPage = await element.evaluate((e) => { const src = e.getAttribute('src'); return !!src && src.trim() !== '' && src !== 'about:blank'; });
  if (!wantsPage) return frame;
  await until(async () => {
    frame = await element.contentFrame();
    return !!frame && frame.url() !== 'about:blank' && !(frame.isDetached?.() ?? false);
  }, timeoutMs, `frame "${selector}" to load its page`);
  return frame!;
}
