import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface AsyncState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
  /** Replace the data locally (after a write that answered the new state). */
  set: (data: T) => void;
}

/** Loads `load()` when `deps` change; the latest call wins. */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): AsyncState<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({ data: undefined, error: undefined, loading: true });
  const generation = useRef(0);
  const run = useCallback(() => {
    const mine = ++generation.current;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    load().then(
      (data) => { if (mine === generation.current) setState({ data, error: undefined, loading: false }); },
      (error: unknown) => { if (mine === generation.current) setState((s) => ({ ...s, error, loading: false })); },
    );
  }, deps);
  useEffect(run, [run]);
  const set = useCallback((data: T) => setState({ data, error: undefined, loading: false }), []);
  return { ...state, reload: run, set };
}

/** Wraps a write: `busy` while it runs, `error` when it failed; answers the result or undefined. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const run = useCallback(async <T,>(work: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(undefined);
    try {
      return await work();
    } catch (e) {
      setError(e);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(undefined) };
}
