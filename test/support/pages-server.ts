// The shipped fixture pages (testing/browser/pages) and the repository's own (test/fixtures/pages: the runner's
// and the inspector's), from one local server.
import { fileURLToPath } from 'node:url';
import { startPagesServer as startFixturePages, type PagesServer } from '../../testing/browser/pages-server.js';

export { startCountingProxy, type CountingProxy, type PagesServer } from '../../testing/browser/pages-server.js';

const OWN_PAGES = fileURLToPath(new URL('../fixtures/pages/', import.meta.url));

export function startPagesServer(): Promise<PagesServer> {
  return startFixturePages({ extraDirs: [OWN_PAGES] });
}
