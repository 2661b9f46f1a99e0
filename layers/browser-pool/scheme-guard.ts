import type { Logger } from '../../kernel/contracts/logger.js';
import { mustLeavePage } from './blocked-schemes.js';
import { connectCdp, type CdpConnection } from './cdp-connection.js';

/** A DevTools connection of the service's own that keeps a launched browser off blocked schemes. */
export interface SchemeGuard {
  close(): void;
}

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
}

const COMMAND_MS = 10_000;

/**
 * Watches the browser at `endpoint` (its loopback DevTools URL) for as long as it runs, whatever else drives it:
 * - `file:` loads are intercepted browser-wide (the Fetch domain on the browser target sees every target's
 *   requests, also of pages a DevTools client creates) and failed before a byte is read;
 * - a page showing `chrome:`, `devtools:` or another internal scheme (which no interception sees) is sent to
 *   about:blank as soon as the browser reports it. The headless shell serves no such page at all.
 * Rejects when the guard cannot be set up: the caller must not use the browser then.
 */
export async function guardSchemes(endpoint: string, logger: Logger): Promise<SchemeGuard> {
  const cdp = await connectCdp(endpoint, COMMAND_MS);
  try {
    cdp.on('Fetch.requestPaused', (params) => {
      logger.warn({ scheme: 'file:' }, 'the browser was refused a file: URL (pages may not read the host\'s files)');
      void cdp.send('Fetch.failRequest', { requestId: params.requestId, errorReason: 'AccessDenied' }).catch(() => undefined);
    });
    await cdp.send('Fetch.enable', { patterns: [{ urlPattern: 'file:*' }] });
    const leaving = new Set<string>();
    const check = (params: Record<string, unknown>) => {
      const target = params.targetInfo as TargetInfo | undefined;
      if (!target || target.type !== 'page' || !mustLeavePage(target.url) || leaving.has(target.targetId)) return;
      leaving.add(target.targetId);
      logger.warn({ scheme: schemeOf(target.url) }, 'a page of the browser showed a browser-internal URL; it was sent to about:blank');
      void leave(cdp, target.targetId).finally(() => leaving.delete(target.targetId));
    };
    cdp.on('Target.targetCreated', check);
    cdp.on('Target.targetInfoChanged', check);
    await cdp.send('Target.setDiscoverTargets', { discover: true });
  } catch (error) {
    cdp.close();
    throw new Error(`Cannot set up the browser's scheme guard: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return { close: () => cdp.close() };
}

/** Navigates the page away; closes it when that fails. */
async function leave(cdp: CdpConnection, targetId: string): Promise<void> {
  try {
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    try {
      await cdp.send('Page.navigate', { url: 'about:blank' }, sessionId);
    } finally {
      await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
    }
  } catch {
    await cdp.send('Target.closeTarget', { targetId }).catch(() => undefined);
  }
}

function schemeOf(url: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0].toLowerCase() ?? 'unknown';
}
