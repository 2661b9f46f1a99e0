import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { confirmAction } from '../components/dialogs';

/** A tiny history-API router: the service answers index.html for every non-API path. */
const listeners = new Set<() => void>();
const here = () => location.pathname + location.search;
/** The address of the screen shown (differs from `here()` while a Back press waits for an answer). */
let shown = here();

function go(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  shown = to;
  for (const listener of listeners) listener();
}

/** Goes to `to`, asking first when a screen holds unsaved work; `force` skips that (the work was just saved). */
export function navigate(to: string, options: { replace?: boolean; force?: boolean } = {}): void {
  if (to === here()) return;
  if (options.force || leaveGuards.size === 0) return go(to, options.replace);
  void confirmLeave().then((ok) => { if (ok) go(to, options.replace); });
}

// Back and Forward: the address has already changed; put it back while the user decides.
let skipPop = false;
addEventListener('popstate', () => {
  const target = here();
  if (skipPop || leaveGuards.size === 0) {
    skipPop = false;
    shown = target;
    for (const listener of listeners) listener();
    return;
  }
  history.pushState(null, '', shown);
  void confirmLeave().then((ok) => {
    if (!ok) return;
    skipPop = true;
    history.back();
  });
});

/** The unsaved work of the screens shown, each as the question to ask before it is dropped. */
const leaveGuards = new Set<{ message: string }>();

addEventListener('beforeunload', (event) => {
  if (leaveGuards.size === 0) return;
  event.preventDefault();
  event.returnValue = ''; // older browsers ask only when returnValue is set
});

/** While `active`, leaving the screen (links, Back, logout, closing the tab) asks first with `message`. */
export function useLeaveGuard(active: boolean, message: string): void {
  // A layout effect runs with the render itself: a plain effect waits for the next frame, and a click in between
  // (a quick user, a busy machine) would leave without asking.
  useLayoutEffect(() => {
    if (!active) return undefined;
    const guard = { message };
    leaveGuards.add(guard);
    return () => void leaveGuards.delete(guard);
  }, [active, message]);
}

/** True when nothing unsaved would be lost, or the user chose to drop it. */
export function confirmLeave(): Promise<boolean> {
  const messages = [...new Set([...leaveGuards].map((g) => g.message))];
  if (messages.length === 0) return Promise.resolve(true);
  return confirmAction(messages.join(' '), { confirmLabel: 'Leave without saving', cancelLabel: 'Stay', focusCancel: true });
}

export interface Location { path: string; params: URLSearchParams }

export function useLocation(): Location {
  const [, force] = useState(0);
  useEffect(() => {
    const listener = () => force((n) => n + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return { path: location.pathname, params: new URLSearchParams(location.search) };
}

/** `pattern` like `/tasks/:id`; answers the decoded parameters or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i]!;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(have[i]!);
    else if (part !== have[i]) return null;
  }
  return params;
}

/** onClick for an <a href>: same-tab left clicks stay in the app. */
export function linkClick(event: MouseEvent): void {
  const anchor = event.currentTarget as HTMLAnchorElement;
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  if (anchor.target || anchor.origin !== location.origin) return;
  event.preventDefault();
  navigate(anchor.pathname + anchor.search);
}
