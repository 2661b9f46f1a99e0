import { startScreencastRecording, type CdpSessionLike, type ScreencastRecorder } from './screencast-recorder.js';

/**
 * The recording of one context: its first page only (a run drives one page), started when that page
 * opens and ended when the context closes or the browser goes away.
 */
export class ContextRecording {
  private started = false;
  private recorder: ScreencastRecorder | undefined;

  constructor(
    private readonly dir: string | undefined,
    private readonly ffmpegPath: string | undefined,
    private readonly size: { width: number; height: number },
  ) {}

  /** Starts recording when this context records and has no recording yet; rejects when ffmpeg is missing. */
  async attach(openSession: () => Promise<CdpSessionLike>): Promise<void> {
    if (!this.dir || this.started) return;
    this.started = true;
    this.recorder = await startScreencastRecording({
      session: await openSession(), dir: this.dir, size: this.size, ffmpegPath: this.ffmpegPath,
    });
  }

  /** Resolves to the finished webm, or undefined. Idempotent. */
  async stop(): Promise<string | undefined> {
    return this.recorder?.stop();
  }
}

/** Recordings still running under one browser, so a crash or kill still ends each ffmpeg. */
export class RecordingSet {
  private readonly live = new Set<ContextRecording>();

  add(recording: ContextRecording): void {
    this.live.add(recording);
  }

  delete(recording: ContextRecording): void {
    this.live.delete(recording);
  }

  stopAll(): void {
    for (const recording of this.live) void recording.stop().catch(() => undefined);
    this.live.clear();
  }
}
