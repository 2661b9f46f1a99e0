import type { BrowserStorageState } from '../../kernel/contracts/browser.js';
import type { CdpConnection, WithCdp } from '../../kernel/contracts/browser-pool.js';
import { windowCookieStore } from './window-cookies.js';

const CDP_MS = 5000;

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
  browserContextId?: string;
}

// Runs in each tab: its origin and local storage; nothing for an opaque origin (about:blank, data:).
const READ_STORAGE = `(() => {
  if (location.origin === 'null') return null;
  const items = [];
  for (let i = 0; i < localStorage.length; i++) { const name = localStorage.key(i); items.push({ name, value: localStorage.getItem(name) ?? '' }); }
  return { origin: location.origin, items };
})()`;

/**
 * The state of the browser's own window (its default context, where a person logs in over VNC): every cookie, and the
 * local storage of the origin each of its tabs shows. What `POST /api/browser-states` saves from a live session.
 */
export async function windowStorageState(withCdp: WithCdp): Promise<BrowserStorageState> {
  const cookies = await windowCookieStore({ withCdp }).get();
  const origins = await withCdp(CDP_MS, async (cdp) => {
    const byOrigin = new Map<string, Array<{ name: string; value: string }>>();
    for (const targetId of await windowTabs(cdp)) {
      const read = await readTab(cdp, targetId);
      if (read && !byOrigin.has(read.origin)) byOrigin.set(read.origin, read.items);
    }
    return [...byOrigin].filter(([, items]) => items.length > 0).map(([origin, localStorage]) => ({ origin, localStorage }));
  });
  return { cookies, origins };
}

async function windowTabs(cdp: CdpConnection): Promise<string[]> {
  const { targetInfos } = await cdp.send<{ targetInfos: TargetInfo[] }>('Target.getTargets');
  // getBrowserContexts lists the contexts runs opened, never the default one.
  const { browserContextIds } = await cdp.send<{ browserContextIds: string[] }>('Target.getBrowserContexts');
  return targetInfos.filter((t) => t.type === 'page' && !browserContextIds.includes(t.browserContextId ?? '')).map((t) => t.targetId);
}

async function readTab(cdp: CdpConnection, targetId: string): Promise<{ origin: string; items: Array<{ name: string; value: string }> } | undefined> {
  const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
  try {
    const answer = await cdp.send<{ result?: { value?: unknown } }>('Runtime.evaluate', { expression: READ_STORAGE, returnByValue: true }, sessionId);
    return (answer.result?.value ?? undefined) as { origin: string; items: Array<{ name: string; value: string }> } | undefined;
  } catch {
    return undefined; // a tab that closed meanwhile, or whose page denies storage
  } finally {
    await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
  }
}
