import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ErrorBox, Loading } from '../components/ui';

/**
 * A screen whose code is fetched the first time it is shown (a dynamic import: its own chunk), so the first
 * screen's bundle does not grow with every screen added. Once loaded it renders at once, as an eager one would.
 */
export function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  const fetchOnce = () => (pending ??= load().then((screen) => (loaded = screen), (error: unknown) => {
    pending = undefined; // a later visit tries again (say, the network came back)
    throw error;
  }));
  return function LazyScreen(props: P) {
    const [, setReady] = useState(false);
    const [error, setError] = useState<unknown>(undefined);
    const [attempt, setAttempt] = useState(0);
    useEffect(() => {
      if (loaded) return undefined;
      let live = true;
      fetchOnce().then(() => live && setReady(true), (e: unknown) => live && setError(e));
      return () => { live = false; };
    }, [attempt]);
    if (loaded) {
      const Screen = loaded;
      return <Screen {...props} />;
    }
    if (error) {
      // A chunk that is gone (the service was upgraded since this page loaded) needs a fresh page.
      return <ErrorBox error={new Error('This screen could not be loaded: reload the page.')} onRetry={() => { setError(undefined); setAttempt((n) => n + 1); }} />;
    }
    return <Loading />;
  };
}
