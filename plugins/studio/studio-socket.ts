import type { WebSocket } from 'ws';
import type { OutboundGuard } from '../../kernel/contracts/outbound.js';
import type { StudioSession } from './studio-sessions.js';
import { sendJson, socketViewer } from './run-live.js';
import { pressKey, sendMouse, type KeyInput, type MouseInput } from './studio-input.js';
import { record, type Recorded } from './recording.js';
import { keepElement } from './element-fingerprints.js';

type ClientMessage =
  | { type: 'mode'; mode: StudioSession['mode'] }
  | ({ type: 'mouse' } & MouseInput)
  | ({ type: 'key' } & KeyInput)
  | { type: 'navigate'; url: string }
  | { type: 'choose'; x: number; y: number; value: string };

const NAVIGATION_MS = 30_000;

/** Evaluates an expression in the page and resolves to its value (undefined when it failed). */
async function evaluate(session: StudioSession, expression: string): Promise<unknown> {
  const answer = await session.devtools.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })
    .catch(() => undefined) as { result?: { value?: unknown } } | undefined;
  return answer?.result?.value;
}
const call = (name: string, ...args: unknown[]) => `window.__taskloomStudio && window.__taskloomStudio.${name}(${args.map((a) => JSON.stringify(a)).join(', ')})`;

/**
 * One viewer of a studio session: frames as for a run, and the person's input. In `interact` and `record` mode the
 * mouse and keys go to the page through the DevTools Input domain (a select opens as a list here, since its native
 * popup is no part of the screencast); in `pick` mode hovering outlines the element under the pointer and a click
 * picks it, answered with its ranked selectors. In `record` mode what the person does comes back as actions.
 */
export function serveStudioSocket(ws: WebSocket, session: StudioSession, guard: OutboundGuard): void {
  const viewer = socketViewer(ws);
  session.viewers++;
  session.touched = Date.now();
  const cast = session.screencast();
  cast.add(viewer);
  sendJson(ws, { type: 'hello', sessionId: session.id, mode: session.mode, url: session.page.url() });
  // `count`: the recording's length after the step (a double click folds the two clicks before it into one).
  for (const [index, step] of session.steps.entries()) sendJson(ws, { type: 'recorded', index, step, count: session.steps.length });

  let moving = false; // one mouse move or hover at a time: the rest are dropped, the next one catches up
  const onBinding = (payload: unknown) => {
    const { name, payload: raw } = payload as { name: string; payload: string };
    if (name !== '__taskloomRecord' || session.mode !== 'record') return;
    let event: Recorded;
    try {
      event = JSON.parse(raw) as Recorded;
    } catch {
      return;
    }
    const added = record(session, event);
    if (added.length > 0 && 'selectors' in event) keepElement(session.elements, event.selectors, (event as { fingerprint?: unknown }).fingerprint);
    for (const step of added) sendJson(ws, { type: 'recorded', ...step, count: session.steps.length });
  };
  const onNavigated = (payload: unknown) => {
    const { frame } = payload as { frame: { parentId?: string; url: string } };
    if (!frame.parentId) sendJson(ws, { type: 'url', url: frame.url });
  };
  session.devtools.on('Runtime.bindingCalled', onBinding);
  session.devtools.on('Page.frameNavigated', onNavigated);

  async function handle(message: ClientMessage): Promise<void> {
    session.touched = Date.now();
    switch (message.type) {
      case 'mode':
        if (['interact', 'pick', 'record'].includes(message.mode)) session.mode = message.mode;
        return sendJson(ws, { type: 'mode', mode: session.mode });
      case 'navigate': {
        await guard.checkUrl(message.url);
        await session.page.goto(message.url, NAVIGATION_MS);
        if (session.mode === 'record') {
          for (const added of record(session, { kind: 'navigate', url: message.url })) sendJson(ws, { type: 'recorded', ...added, count: session.steps.length });
        }
        return;
      }
      case 'key':
        if (session.mode !== 'pick') await pressKey(session.devtools, message);
        return;
      case 'choose':
        await evaluate(session, call('choose', message.x, message.y, message.value));
        return;
      case 'mouse':
        return mouse(message);
    }
  }

  async function mouse(message: MouseInput): Promise<void> {
    const { x, y } = message;
    if (message.action === 'move') {
      if (moving) return;
      moving = true;
      try {
        if (session.mode === 'pick') sendJson(ws, { type: 'hover', box: await evaluate(session, call('hover', x, y)) });
        else await sendMouse(session.devtools, message);
      } finally {
        moving = false;
      }
      return;
    }
    if (session.mode === 'pick') {
      if (message.action !== 'down') return;
      const picked = await evaluate(session, call('pick', x, y)) as { candidates?: Array<{ selector: string }> } | null;
      // Its fingerprint is kept for the task the picked selector goes into (healing).
      if (picked?.candidates) keepElement(session.elements, picked.candidates, await evaluate(session, call('fingerprint', picked.candidates.map((c) => c.selector))));
      sendJson(ws, { type: 'picked', ...(picked ?? {}) });
      return;
    }
    if (message.action === 'down' && (message.button ?? 'left') === 'left') {
      const select = await evaluate(session, call('selectAt', x, y));
      if (select) return sendJson(ws, { type: 'select', x, y, ...(select as object) });
    }
    await sendMouse(session.devtools, message);
  }

  // Messages are handled one after another, in order: a click's down before its up.
  let queue = Promise.resolve();
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    let message: ClientMessage;
    try {
      message = JSON.parse(String(data)) as ClientMessage;
    } catch {
      return sendJson(ws, { type: 'error', message: 'Messages are JSON' });
    }
    queue = queue.then(() => handle(message)).catch((error: unknown) => {
      sendJson(ws, { type: 'error', message: error instanceof Error ? error.message : String(error) });
    });
  });
  ws.on('close', () => {
    session.viewers--;
    session.touched = Date.now();
    cast.remove(viewer);
    session.devtools.off('Runtime.bindingCalled', onBinding);
    session.devtools.off('Page.frameNavigated', onNavigated);
  });
}
