import type { WebSocket } from 'ws'; // a type only: ws loads with the first upgrade (start-up-loading test)
import type { RunView, ViewedAction } from '../runs/run-view.js';
import { boxOf } from './element-box.js';
import { Screencast, type FrameViewer } from './screencast.js';

/** A text message of the live view (the frames are binary JPEG messages). */
export type LiveMessage =
  | { type: 'hello'; executionId: string; status: string }
  | { type: 'hello'; liveId: string; status: string }
  | { type: 'viewport'; width: number; height: number }
  | { type: 'action'; index: number; label: string; actionType: string; selector?: string }
  | { type: 'outline'; index: number; box: { x: number; y: number; width: number; height: number } }
  | { type: 'unavailable'; reason: string }
  | { type: 'elsewhere'; instanceId: string }
  | { type: 'end'; status: string };

/** Tries for the action's element while the action waits for it to appear. */
const OUTLINE_TRIES = 20;
const OUTLINE_RETRY_MS = 300;

/** Sends a text message: a run's (LiveMessage) or a studio session's (studio-socket.ts). */
export function sendJson(ws: WebSocket, message: LiveMessage | { type: string; [key: string]: unknown }): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
}

/** A viewer writing to a WebSocket: a frame counts as taken once the socket wrote it out. */
export function socketViewer(ws: WebSocket): FrameViewer {
  return {
    frame: (jpeg, done) => {
      if (ws.readyState !== ws.OPEN) return done();
      ws.send(jpeg, { binary: true }, () => done());
    },
    viewport: (size) => sendJson(ws, { type: 'viewport', ...size }),
  };
}

/** What a live view watches: a run of this process (runs/live-run.ts) or a run to here (runs/run-to-here-views.ts). */
export interface Watched {
  readonly view: RunView;
  readonly finished: Promise<{ status: string }>;
}

/**
 * The live views of this process's runs and runs to here: one shared screencast per run page, started by its first
 * viewer and ended by its last (or when the run's page closes).
 */
export function createRunLive() {
  const casts = new Map<Watched, Screencast>();

  const castOf = (run: Watched) => {
    let cast = casts.get(run);
    if (!cast && run.view.page) casts.set(run, (cast = new Screencast(run.view.page)));
    return cast;
  };
  const drop = (run: Watched, cast: Screencast) => {
    if (casts.get(run) === cast) casts.delete(run);
    void cast.end();
  };

  /** Streams `run` to `ws`, after `hello`, until the run ends or the viewer leaves. */
  function watch(ws: WebSocket, run: Watched, hello: LiveMessage): void {
    const { view } = run;
    const viewer = socketViewer(ws);
    let cast: Screencast | undefined;
    sendJson(ws, hello);

    const outline = async (action: ViewedAction) => {
      const session = await cast?.devtools();
      if (!session || !action.selector) return;
      // The first answer is sent even when the action already ended (a viewer ignores an outline not of its current
      // action); tries after it only while the action waits for its element.
      for (let i = 0; i < OUTLINE_TRIES && (i === 0 || view.current === action) && ws.readyState === ws.OPEN; i++) {
        const box = await boxOf(session, action.selector);
        if (box) return sendJson(ws, { type: 'outline', index: action.index, box });
        await new Promise((resolve) => setTimeout(resolve, OUTLINE_RETRY_MS));
      }
    };
    const announce = (action: ViewedAction) => {
      const { index, label, type, selector } = action;
      sendJson(ws, { type: 'action', index, label, actionType: type, ...(selector ? { selector } : {}) });
      void outline(action);
    };
    const attach = () => {
      cast = castOf(run);
      if (!cast) return;
      if (!view.page?.devtools) {
        sendJson(ws, { type: 'unavailable', reason: 'This run\'s browser offers no DevTools session (a headful-mode run): watch it over noVNC' });
        return;
      }
      cast.add(viewer);
      if (view.current) announce(view.current);
    };
    const closed = () => {
      const ending = cast;
      cast = undefined;
      if (ending) drop(run, ending);
    };
    const leave = () => {
      view.events.off('page', attach);
      view.events.off('action', announce);
      view.events.off('closed', closed);
      if (!cast) return;
      cast.remove(viewer);
      if (!cast.watched) drop(run, cast);
    };

    if (view.page) attach();
    view.events.on('page', attach);
    view.events.on('action', announce);
    view.events.once('closed', closed);
    void run.finished.then((answer) => {
      sendJson(ws, { type: 'end', status: answer.status });
      ws.close(1000, 'run ended');
    });
    ws.on('close', leave);
  }

  return {
    watch,
    /** Ends every screencast (the service is stopping). */
    endAll(): void {
      for (const [run, cast] of casts) drop(run, cast);
    },
  };
}
