/**
 * What the DevTools relay does with each method a client sends, and why: the list a reviewer reads. A
 * method not listed goes through unless one of its parameter names (at any depth, outside the free-form
 * values below) holds a word of HOST_WORDS: a method Chromium gained after this list was written and that
 * takes a path, a URL, a proxy or a port is refused until someone lists it. test/plugins/devtools-policy.test.ts
 * checks that every method of the protocol whose parameters hold such a word is listed.
 */
export type Check =
  /** downloadPath must be in the session's downloads folder (relative paths land there; see devtools-checks.ts). */
  | 'downloads'
  /** The URL opened: http(s) passing the outbound rule, data:, blob:, about:blank; rewritten to its parsed form. */
  | 'navigation'
  /** A URL the browser's network stack fetches: http(s) passing the outbound rule. */
  | 'network-url'
  /** Files handed to a page (`files`, `data.files`) come from the session's downloads folder only. */
  | 'files'
  /** A context's own proxy must pass the outbound rule and carry loopback too; no origin gets universal access. */
  | 'browser-context'
  /** Tracing stays in the browser (tracingBackend `chrome`), never the host's system tracing service. */
  | 'tracing'
  /** The message inside (an old-style session) goes through this same list. */
  | 'nested';

export type Verdict = 'allow' | 'refuse' | Check;

export interface PolicyEntry {
  verdict: Verdict;
  reason: string;
}

const allow = (reason: string): PolicyEntry => ({ verdict: 'allow', reason });
const refuse = (reason: string): PolicyEntry => ({ verdict: 'refuse', reason });
const check = (verdict: Check, reason: string): PolicyEntry => ({ verdict, reason });

/** Whole domains no client library needs and that reach the host. */
export const DOMAIN_POLICY: Readonly<Record<string, PolicyEntry>> = {
  PWA: refuse('installs and launches web apps from host files and bundles (install, launchFilesInApp)'),
  Extensions: refuse('loads code from a host folder (loadUnpacked) and reads extensions\' storage'),
  Tethering: refuse('binds ports on the host'),
  Cast: refuse('mirrors the desktop or a tab to a receiver on the network'),
  SystemInfo: refuse('describes the host: its GPU, model, command line and processes'),
  DeviceAccess: refuse('hands a page the host\'s USB, HID, serial or Bluetooth devices (selectPrompt)'),
};

const COOKIE = 'url and path scope a cookie; nothing is fetched';
const SCRIPT_POSITION = 'location is a position in a script';
const CONSOLE_API = 'includeCommandLineAPI gives the page\'s own script the console\'s helper functions';
const WORKER_SCOPE = 'scopeURL names a service worker registration the pages made';
const PATTERNS = 'URL patterns select requests; nothing is fetched';

export const METHOD_POLICY: Readonly<Record<string, PolicyEntry>> = {
  // The shared browser itself.
  'Browser.close': refuse('ends the shared browser and every run in it: end the session with POST /api/browser/close'),
  'Browser.crash': refuse('crashes the shared browser'),
  'Browser.crashGpuProcess': refuse('crashes the shared browser\'s GPU process'),
  'Browser.getBrowserCommandLine': refuse('tells the host\'s paths and the browser\'s switches'),
  'Browser.executeBrowserCommand': refuse('drives the browser\'s own interface (commandId), not a page'),
  'Target.setRemoteLocations': refuse('makes the browser dial hosts and ports of the caller\'s choosing, the host\'s loopback included'),
  'Target.exposeDevToolsProtocol': refuse('gives a page\'s scripts the browser\'s DevTools protocol, past this relay'),
  'Target.openDevTools': refuse('opens a DevTools front-end, a privileged devtools: page'),

  // Host files.
  'Browser.setDownloadBehavior': check('downloads', 'a download path is a folder on the host'),
  'Page.setDownloadBehavior': check('downloads', 'a download path is a folder on the host'),
  'DOM.setFileInputFiles': check('files', 'hands host files to a page, which can read them'),
  'Input.dispatchDragEvent': check('files', 'data.files drops host files on a page, which can read them'),

  // What the browser opens or fetches.
  'Page.navigate': check('navigation', 'file:, chrome:, view-source:, devtools: and private hosts reach the host'),
  'Target.createTarget': check('navigation', 'file:, chrome:, view-source:, devtools: and private hosts reach the host'),
  'Network.loadNetworkResource': check('network-url', 'the browser fetches it, without the page\'s CORS rules'),
  'Fetch.continueRequest': check('network-url', 'url redirects a paused request anywhere'),
  'Network.continueInterceptedRequest': check('network-url', 'url redirects an intercepted request anywhere'),
  'Target.createBrowserContext': check('browser-context', 'a context\'s own proxy (and its bypass list) goes around the service\'s proxy'),
  'Tracing.start': check('tracing', 'the system tracing backend records the whole host'),
  'Target.sendMessageToTarget': check('nested', 'carries another message'),

  // Listed because a parameter name sounds like a path or URL, though nothing reaches the host.
  'Browser.addPrivacySandboxEnrollmentOverride': allow('url names a site to treat as enrolled; nothing is fetched'),
  'CSS.addRule': allow('location is a position in a style sheet'),
  'CacheStorage.requestCachedResponse': allow('requestURL keys an entry of a site\'s own cache; nothing is fetched'),
  'CacheStorage.requestEntries': allow('pathFilter filters a site\'s own cache entries'),
  'DOM.pushNodeByPathToFrontend': allow('path is a path of DOM nodes'),
  'DOMDebugger.setXHRBreakpoint': allow('url is a substring to break on'),
  'DOMDebugger.removeXHRBreakpoint': allow('url is a substring to break on'),
  'FedCm.openUrl': allow('opens the identity provider\'s own page for the dialog shown (accountUrlType)'),
  'Fetch.enable': allow(PATTERNS),
  'FileSystem.getDirectory': allow('pathComponents are inside a site\'s sandboxed file system, not the host\'s'),
  'Input.dispatchKeyEvent': allow('location is the key\'s place on the keyboard; commands are editing commands'),
  'Network.deleteCookies': allow(COOKIE),
  'Network.getCookies': allow(COOKIE),
  'Network.setCookie': allow(COOKIE),
  'Network.setCookies': allow(COOKIE),
  'Storage.setCookies': allow(COOKIE),
  'Page.deleteCookie': allow(COOKIE),
  'Network.emulateNetworkConditionsByRule': allow(PATTERNS),
  'Network.setBlockedURLs': allow(PATTERNS),
  'Network.setRequestInterception': allow(PATTERNS),
  'Page.addScriptToEvaluateOnNewDocument': allow(CONSOLE_API),
  'Runtime.evaluate': allow(CONSOLE_API),
  'Runtime.runScript': allow(CONSOLE_API),
  'Debugger.evaluateOnCallFrame': allow(CONSOLE_API),
  'Page.enable': allow('enableFileChooserOpenedEvent reports file choosers; files are set only through DOM.setFileInputFiles'),
  'Page.getResourceContent': allow('url names a resource the page already loaded'),
  'Page.searchInResource': allow('url names a resource the page already loaded'),
  'Page.produceCompilationCache': allow('url keys a script\'s compilation cache; nothing is fetched'),
  'Page.addCompilationCache': allow('url keys a script\'s compilation cache; nothing is fetched'),
  'ServiceWorker.skipWaiting': allow(WORKER_SCOPE),
  'ServiceWorker.startWorker': allow(WORKER_SCOPE),
  'ServiceWorker.unregister': allow(WORKER_SCOPE),
  'ServiceWorker.updateRegistration': allow(WORKER_SCOPE),
  'Storage.getAffectedUrlsForThirdPartyCookieMetadata': allow('classifies URLs; nothing is fetched'),
  'Debugger.continueToLocation': allow(SCRIPT_POSITION),
  'Debugger.setBreakpoint': allow(SCRIPT_POSITION),
  'Debugger.setBreakpointByUrl': allow('url is a script to break in'),
  'Runtime.compileScript': allow('sourceURL names the script compiled'),
};

/** Words of a parameter name (split at camelCase) that mark it as a path, URL, proxy or port. */
export const HOST_WORDS: ReadonlySet<string> = new Set([
  'path', 'paths', 'file', 'files', 'dir', 'directory', 'url', 'urls', 'proxy', 'host', 'port', 'location', 'locations',
  'command', 'commands', 'bundle', 'executable',
]);

/**
 * Parameters holding the caller's own values (script arguments, header names, a virtual wallet's answer to the
 * page, a page tool's input): their keys are not parameter names.
 */
export const FREE_FORM: ReadonlySet<string> = new Set(['value', 'values', 'headers', 'memoryDumpConfig', 'additionalParameters', 'response', 'input']);

/**
 * Methods listed above that newer versions of the protocol dropped: an older Chromium (a remote grid's, say)
 * still serves them, so they stay listed.
 */
export const DROPPED_FROM_PROTOCOL: ReadonlySet<string> = new Set([
  'Network.continueInterceptedRequest', 'Network.setRequestInterception', 'Storage.getAffectedUrlsForThirdPartyCookieMetadata',
]);

/** `downloadPath` → `download path`; `baseURL` → `base url`. */
export function nameWords(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').toLowerCase()
    .split(/[^a-z0-9]+/).filter(Boolean);
}
