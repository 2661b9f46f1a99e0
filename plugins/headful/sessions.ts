import { Errors } from '../../kernel/errors.js';
import type { BrowserSessions } from './decorators.js';
import type { ManagedBrowser } from './managed-browser.js';

const notOpen = (id: string) =>
  Errors.NOT_FOUND({}, { details: `Browser session ${id} is not open: open one with POST /api/browser/open` });

/** `app.browserSessions`: the managed browser seen as sessions, looked up by the id `open` answered. */
export function createBrowserSessions(managed: ManagedBrowser): BrowserSessions {
  return {
    open: (options = {}) => managed.open(options.headless === true),
    get(sessionId) {
      const session = managed.current();
      if (!session || session.id !== sessionId) throw notOpen(sessionId);
      return session;
    },
    current: () => managed.current(),
    async close(sessionId) {
      if (!(await managed.closeSession(sessionId))) throw notOpen(sessionId);
    },
  };
}
