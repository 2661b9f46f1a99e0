import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** The little of a DevTools session the recorder needs; both engines can hand one out for a page. */
export interface CdpSessionLike {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  on(event: string, listener: (payload: unknown) => void): void;
}

export interface ScreencastRecorder {
  readonly videoPath: string;
  /** Ends the recording; resolves to the webm's path, or undefined when nothing usable was recorded. */
  stop(): Promise<string | undefined>;
}

export interface RecordingOptions {
  session: CdpSessionLike;
  dir: string;
  /** Video size in CSS pixels (the page's viewport). */
  size: { width: number; height: number };
  /** Undefined: `ffmpeg` on the PATH. */
  ffmpegPath?: string;
}

interface ScreencastFrame {
  data: string;
  sessionId: number;
  metadata?: { timestamp?: number };
}

const FPS = 15;
const STOP_SCREENCAST_MS = 1000;
const FFMPEG_EXIT_MS = 15_000;

/**
 * Records a page through the DevTools screencast (JPEG frames sent when the page repaints) piped into
 * the system's ffmpeg. Playwright's own recorder only uses the ffmpeg it downloads, which cannot exist
 * on a machine without internet, so both engines record this way.
 */
export async function startScreencastRecording(options: RecordingOptions): Promise<ScreencastRecorder> {
  await mkdir(options.dir, { recursive: true });
  const videoPath = path.join(options.dir, `${randomUUID()}.webm`);
  const width = even(options.size.width);
  const height = even(options.size.height);
  const ffmpeg = await startFfmpeg(options.ffmpegPath ?? 'ffmpeg', videoPath, width, height);

  let last: { jpeg: Buffer; time: number } | undefined;
  let stopped = false;
  const write = (jpeg: Buffer, count: number) => {
    for (let i = 0; i < count; i++) ffmpeg.stdin!.write(jpeg);
  };
  // Chromium only sends a frame when the page changes: repeat the previous one to keep the clock right.
  const onFrame = (jpeg: Buffer, time: number) => {
    if (last) {
      const count = Math.max(0, Math.round((time - last.time) * FPS));
      write(last.jpeg, count);
      last = { jpeg, time: last.time + count / FPS };
    } else {
      last = { jpeg, time };
    }
  };
  options.session.on('Page.screencastFrame', (payload) => {
    const frame = payload as ScreencastFrame;
    options.session.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => undefined);
    if (!stopped) onFrame(Buffer.from(frame.data, 'base64'), frame.metadata?.timestamp ?? Date.now() / 1000);
  });
  await options.session.send('Page.startScreencast', {
    format: 'jpeg', quality: 80, maxWidth: width, maxHeight: height, everyNthFrame: 1,
  });

  let stopping: Promise<string | undefined> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      // A wedged renderer may never answer: do not wait for it.
      await withTimeout(options.session.send('Page.stopScreencast').catch(() => undefined), STOP_SCREENCAST_MS);
      stopped = true;
      if (last) write(last.jpeg, Math.max(1, Math.round((Date.now() / 1000 - last.time) * FPS)));
      ffmpeg.stdin!.end();
      const exit = once(ffmpeg, 'exit') as Promise<[number | null]>;
      const result = await withTimeout(exit, FFMPEG_EXIT_MS);
      if (!result) ffmpeg.kill('SIGKILL');
      if (!last || !result || result[0] !== 0) return undefined;
      return (await stat(videoPath).catch(() => undefined))?.size ? videoPath : undefined;
    })();
    return stopping;
  };
  return { videoPath, stop };
}

async function startFfmpeg(command: string, output: string, width: number, height: number): Promise<ChildProcess> {
  const args = [
    '-loglevel', 'error', '-f', 'image2pipe', '-framerate', String(FPS), '-c:v', 'mjpeg', '-i', 'pipe:0',
    '-y', '-an', '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '1M', '-threads', '1',
    '-vf', `pad=${width}:${height}:0:0:gray,crop=${width}:${height}:0:0`, output,
  ];
  const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'ignore'] });
  child.stdin!.on('error', () => undefined); // ffmpeg gone: the exit code tells
  try {
    await once(child, 'spawn');
  } catch (error) {
    const hint = (error as NodeJS.ErrnoException).code === 'ENOENT'
      ? 'set FFMPEG_PATH or install ffmpeg (apt-get install ffmpeg)'
      : (error as Error).message;
    throw new Error(`Cannot record: ffmpeg not found at ${command}: ${hint}`);
  }
  return child;
}

function even(n: number): number {
  return Math.max(2, Math.floor(n / 2) * 2);
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => { timer = setTimeout(() => resolve(undefined), ms); });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
