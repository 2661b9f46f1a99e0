import type { BrowserDriver, BrowserHandle, BrowserLaunchOptions, ContextHandle, ContextOptions } from '../../kernel/contracts/browser.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import { startForwardProxy, type ForwardProxy } from './forward-proxy.js';
import type { OutboundGuard } from '../../kernel/contracts/outbound.js';
import { guardSchemes, type SchemeGuard } from './scheme-guard.js';

export interface BrowserNetworkOptions {
  guard: OutboundGuard;
  logger: Logger;
}

/**
 * What every browser this service launches is held to, whatever drives it (a run, the headful window, a
 * DevTools client through the relay):
 * - with ALLOW_PRIVATE_NETWORKS=false all its traffic goes through an in-process forward proxy that applies the
 *   outbound rule at connect time (see forward-proxy.ts); a context with a task's proxy gets a proxy of its own
 *   that checks, then continues through the task's proxy, holding its credentials (the browser never sees them);
 * - it never loads `file:` nor keeps a page on `chrome:` and the like (scheme-guard.ts), in either mode.
 * A remote browser (BROWSER_WS_ENDPOINT) is left as it is: the service cannot stand in front of its network.
 */
export interface BrowserNetwork {
  /** `driver`, with each browser it launches (not a remote one) held to the rules above. */
  police(driver: BrowserDriver): BrowserDriver;
  /** Stops the forward proxies. After the browsers are closed. Idempotent. */
  close(): Promise<void>;
}

/**
 * With every connection going through the proxy, Chromium's own UDP is what is left: QUIC is off for all
 * browsers (chromium-args.ts); WebRTC may send UDP only through a proxy, i.e. not at all (`force-` is the
 * headless shell's switch, the other the full browser's).
 */
const PROXIED_ARGS = [
  '--proxy-bypass-list=<-loopback>',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--disable-quic',
];

export function createBrowserNetwork(options: BrowserNetworkOptions): BrowserNetwork {
  const { guard } = options;
  const logger = options.logger.child({ component: 'browser-network' });
  const proxied = !guard.allowPrivateNetworks;
  let main: Promise<ForwardProxy> | undefined;
  const routes = new Set<ForwardProxy>();

  async function launchArgs(): Promise<string[]> {
    if (!proxied) return [];
    main ??= startForwardProxy({ guard, logger }).catch((error: unknown) => {
      main = undefined;
      throw error;
    });
    return [`--proxy-server=${(await main).url}`, ...PROXIED_ARGS];
  }

  /** A context with a task's proxy goes through a route of its own, closed with the context. */
  async function openContext(handle: BrowserHandle, contextOptions: ContextOptions): Promise<ContextHandle> {
    if (!proxied || !contextOptions.proxy) return handle.newContext(contextOptions);
    const route = await startForwardProxy({ guard, logger, upstream: contextOptions.proxy });
    routes.add(route);
    const release = () => {
      routes.delete(route);
      return route.close();
    };
    let context: ContextHandle;
    try {
      context = await handle.newContext({ ...contextOptions, proxy: { server: route.url } });
    } catch (error) {
      await release();
      throw error;
    }
    return {
      newPage: () => context.newPage(),
      cookies: () => context.cookies(),
      addCookies: context.addCookies && ((cookies) => context.addCookies!(cookies)),
      storageState: context.storageState && (() => context.storageState!()),
      async close() {
        try {
          return await context.close();
        } finally {
          await release();
        }
      },
    };
  }

  function police(driver: BrowserDriver): BrowserDriver {
    return {
      id: driver.id,
      installedExecutablePath: driver.installedExecutablePath?.bind(driver),
      packagedChromium: driver.packagedChromium?.bind(driver),
      async launch(launchOptions: BrowserLaunchOptions) {
        if (launchOptions.wsEndpoint) return driver.launch(launchOptions);
        const handle = await driver.launch({ ...launchOptions, args: [...launchOptions.args, ...(await launchArgs())] });
        let schemes: SchemeGuard;
        try {
          const endpoint = handle.cdpEndpoint?.();
          if (!endpoint) throw new Error(`the ${driver.id} engine exposes no DevTools endpoint for the browsers it launches`);
          schemes = await guardSchemes(endpoint, logger);
        } catch (error) {
          handle.kill();
          throw error;
        }
        handle.onDisconnected(() => schemes.close());
        return policedHandle(handle, schemes);
      },
    };
  }

  function policedHandle(handle: BrowserHandle, schemes: SchemeGuard): BrowserHandle {
    return {
      get pid() {
        return handle.pid;
      },
      isConnected: () => handle.isConnected(),
      onDisconnected: (listener) => handle.onDisconnected(listener),
      newContext: (contextOptions) => openContext(handle, contextOptions),
      async close() {
        try {
          await handle.close();
        } finally {
          schemes.close();
        }
      },
      kill() {
        schemes.close();
        handle.kill();
      },
      cdpEndpoint: handle.cdpEndpoint ? () => handle.cdpEndpoint!() : undefined,
    };
  }

  return {
    police,
    async close() {
      const proxies = [...routes, ...(main ? [await main.catch(() => undefined)] : [])];
      routes.clear();
      main = undefined;
      await Promise.all(proxies.map((proxy) => proxy?.close()));
    },
  };
}
