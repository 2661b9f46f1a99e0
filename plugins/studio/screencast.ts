import type { BrowserPage, PageDevtools } from '../../kernel/contracts/browser.js';

/** One viewer of a screencast: told of each JPEG frame, and of the page's size in CSS pixels when it changes. */
export interface FrameViewer {
  /** Sends the frame; `done` once it left (the next frame is asked for only when every viewer took this one). */
  frame(jpeg: Buffer, done: () => void): void;
  viewport(size: { width: number; height: number }): void;
}

interface ScreencastFrame {
  data: string;
  sessionId: number;
  metadata: { deviceWidth: number; deviceHeight: number };
}

/** Frames at most this size (device pixels); a larger page is scaled down to fit. */
export const MAX_FRAME = { width: 1920, height: 1080 };
const JPEG_QUALITY = 60;
/**
 * About this many frames a second at most: Chromium encodes a frame only while fewer than two wait for their
 * acknowledgement, so spacing the acknowledgements bounds what a viewer costs the run (a page that animates
 * would otherwise be encoded up to 60 times a second).
 */
export const MAX_FPS = 6;
const FRAMES_IN_FLIGHT = 2;
/** A refused start (the page between documents) is tried again this often, this many times (10 s in all). */
const START_RETRY_MS = 100;
const START_TRIES = 100;

/**
 * The DevTools screencast of one page, shared by its viewers: started with the first, stopped with the last, so a
 * page nobody watches costs nothing. Chromium sends a frame when the page repaints and the next only once the last
 * is acknowledged: acknowledging when every viewer's socket took it keeps a slow viewer from queueing frames.
 */
export class Screencast {
  private readonly viewers = new Set<FrameViewer>();
  private session: PageDevtools | undefined;
  private opening: Promise<PageDevtools | undefined> | undefined;
  private last: { jpeg: Buffer; size: { width: number; height: number } } | undefined;
  private ended = false;
  private lastAckAt = 0;

  constructor(private readonly page: BrowserPage) {}

  /** The session the screencast runs on (also used for the action's outline), once it is open. */
  devtools(): Promise<PageDevtools | undefined> {
    this.opening ??= this.open();
    return this.opening;
  }

  add(viewer: FrameViewer): void {
    this.viewers.add(viewer);
    if (this.last) {
      viewer.viewport(this.last.size);
      viewer.frame(this.last.jpeg, () => undefined);
    }
    void this.devtools();
  }

  /** Removes a viewer; the last one out stops the screencast. */
  remove(viewer: FrameViewer): void {
    this.viewers.delete(viewer);
    if (this.viewers.size === 0) void this.end();
  }

  get isEnded(): boolean {
    return this.ended;
  }

  get watched(): boolean {
    return this.viewers.size > 0;
  }

  /** Stops the screencast and detaches (the page is closing, or nobody watches). Never rejects. */
  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    const session = await this.opening;
    if (!session) return;
    await session.send('Page.stopScreencast').catch(() => undefined);
    await session.detach();
  }

  private async open(): Promise<PageDevtools | undefined> {
    if (!this.page.devtools) return undefined;
    const session = await this.page.devtools().catch(() => undefined);
    if (!session) return undefined;
    this.session = session;
    session.on('Page.screencastFrame', (payload) => this.onFrame(payload as ScreencastFrame));
    await this.start(session);
    if (this.ended) await session.detach();
    return session;
  }

  /**
   * Starts the screencast. Chromium refuses it while the page is between two documents ("Not attached to an active
   * page": a viewer that came as the run's first navigation committed), so a refusal is tried again shortly.
   */
  private async start(session: PageDevtools): Promise<void> {
    for (let tries = 0; tries < START_TRIES && !this.ended; tries++) {
      const started = await session.send('Page.startScreencast', {
        format: 'jpeg', quality: JPEG_QUALITY, maxWidth: MAX_FRAME.width, maxHeight: MAX_FRAME.height, everyNthFrame: 1,
      }).then(() => true, () => false);
      if (started) return;
      await new Promise((resolve) => setTimeout(resolve, START_RETRY_MS));
    }
  }

  private onFrame(frame: ScreencastFrame): void {
    const session = this.session!;
    const send = () => {
      this.lastAckAt = Date.now();
      if (!this.ended) session.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => undefined);
    };
    const ack = () => {
      const wait = this.lastAckAt + (1000 * FRAMES_IN_FLIGHT) / MAX_FPS - Date.now();
      if (wait > 0) setTimeout(send, wait);
      else send();
    };
    const jpeg = Buffer.from(frame.data, 'base64');
    const size = { width: Math.round(frame.metadata.deviceWidth), height: Math.round(frame.metadata.deviceHeight) };
    const resized = !this.last || this.last.size.width !== size.width || this.last.size.height !== size.height;
    this.last = { jpeg, size };
    let waiting = this.viewers.size;
    if (waiting === 0) return ack();
    for (const viewer of this.viewers) {
      if (resized) viewer.viewport(size);
      viewer.frame(jpeg, () => { if (--waiting === 0) ack(); });
    }
  }
}
