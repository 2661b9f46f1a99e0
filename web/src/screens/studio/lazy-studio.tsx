import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Loading } from '../../components/ui';

/** The studio screen, loaded only when opened (it is no part of the first screen's bundle). */
export function LazyStudio() {
  const [Screen, setScreen] = useState<ComponentType | undefined>();
  useEffect(() => {
    void import('./studio-screen').then((module) => setScreen(() => module.default));
  }, []);
  return Screen ? <Screen /> : <Loading />;
}
