import { useEffect, useState } from 'preact/hooks';

/** A tiny history-API router: the service answers index.html for every non-API path. */
const listeners = new Set<() => void>();

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  for (const listener of listeners) listener();
}

addEventListener('popstate', () => {
  for (const listener of listeners) listener();
});

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
