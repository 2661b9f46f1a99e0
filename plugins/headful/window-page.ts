import type { BrowserPage } from '../../kernel/contracts/browser.js';
import type { CdpConnection, WithCdp } from '../../kernel/contracts/browser-pool.js';

/** What the inspector needs of a page; both a run's page and the page of a session's window offer it. */
export type InspectablePage = Pick<BrowserPage, 'goto' | 'evaluate' | 'screenshot'>;

interface TargetInfo {
  targetId: string;
  type: string;
  browserContextId?: string;
}

interface EvaluateAnswer {
  result?: { value?: unknown };
  exceptionDetails?: { text?: string; exception?: { description?: string } };
}

/**
 * Runs `fn` with the page a person sees in the browser's own window (its first tab, opened when there is
 * none), driven over the DevTools protocol: the engines only drive the contexts they opened themselves.
 */
export function withWindowPage<T>(withCdp: WithCdp, timeoutMs: number, fn: (page: InspectablePage) => Promise<T>): Promise<T> {
  return withCdp(timeoutMs, async (cdp) => {
    const sessionId = await attachToWindowPage(cdp);
    await cdp.send('Page.enable', {}, sessionId);
    return fn(windowPage(cdp, sessionId));
  });
}

async function attachToWindowPage(cdp: CdpConnection): Promise<string> {
  const { targetInfos } = await cdp.send<{ targetInfos: TargetInfo[] }>('Target.getTargets');
  // getBrowserContexts lists the contexts runs opened, never the default one.
  const { browserContextIds } = await cdp.send<{ browserContextIds: string[] }>('Target.getBrowserContexts');
  const own = targetInfos.find((t) => t.type === 'page' && !browserContextIds.includes(t.browserContextId ?? ''));
  const targetId = own?.targetId ?? (await cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' })).targetId;
  return (await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true })).sessionId;
}

function windowPage(cdp: CdpConnection, sessionId: string): InspectablePage {
  return {
    async goto(url, timeoutMs) {
      let stop: () => void = () => undefined;
      const loaded = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${url} to load`)), timeoutMs);
        const off = cdp.on('Page.loadEventFired', (_params, from) => {
          if (from === sessionId) resolve();
        });
        stop = () => { clearTimeout(timer); off(); };
      });
      loaded.catch(() => undefined);
      try {
        const answer = await cdp.send<{ errorText?: string; loaderId?: string }>('Page.navigate', { url }, sessionId);
        if (answer.errorText) throw new Error(`Opening ${url} failed: ${answer.errorText}`);
        // No loaderId: a same-document navigation (an anchor), which fires no load event.
        if (answer.loaderId) await loaded;
      } finally {
        stop();
      }
    },
    async evaluate(body, args) {
      const expression = `(async function (args) {\n${body}\n}).call(undefined, ${JSON.stringify(args ?? {})})`;
      const answer = await cdp.send<EvaluateAnswer>('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId);
      if (answer.exceptionDetails) {
        throw new Error(answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text ?? 'The page script failed');
      }
      return answer.result?.value;
    },
    async screenshot(options) {
      const { data } = await cdp.send<{ data: string }>('Page.captureScreenshot', {
        format: options.type, ...(options.quality === undefined ? {} : { quality: options.quality }), captureBeyondViewport: options.fullPage,
      }, sessionId);
      return Buffer.from(data, 'base64');
    },
  };
}
