import type { PageDevtools } from '../../../kernel/contracts/browser.js';

/** The part of a CDP session both engines' session objects share (Playwright's CDPSession, Puppeteer's). */
interface EngineCdpSession {
  send(method: never, params?: never): Promise<unknown>;
  on(event: never, listener: never): unknown;
  off(event: never, listener: never): unknown;
  detach(): Promise<void>;
}

/** The contract's page DevTools session over an engine's CDP session. */
export function pageDevtools(session: EngineCdpSession): PageDevtools {
  return {
    send: (method, params) => session.send(method as never, params as never),
    on: (event, listener) => { session.on(event as never, listener as never); },
    off: (event, listener) => { session.off(event as never, listener as never); },
    detach: () => session.detach().catch(() => undefined),
  };
}
