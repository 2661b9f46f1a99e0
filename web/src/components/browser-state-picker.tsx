import { get } from '../api/client';
import type { BrowserState } from '../api/types';
import { useAsync } from '../lib/use-async';
import { SelectField } from './ui';

/** Chooses a named browser state (README "Browser states") by name; `''` is none (the first option says what that means). */
export function BrowserStatePicker(props: { label: string; hint?: string; value: string; onValue: (name: string) => void; none: string }) {
  const states = useAsync(() => get<{ states: BrowserState[] }>('/api/browser-states').then((r) => r.states), []);
  const names = (states.data ?? []).map((s) => s.name);
  // A name the task holds but no state has (deleted, or not saved yet) stays choosable, marked.
  if (props.value && !names.includes(props.value)) names.push(props.value);
  return (
    <SelectField label={props.label} hint={props.hint} value={props.value} onValue={props.onValue}
      options={[['', props.none], ...names.map((name): [string, string] => [name, states.data?.some((s) => s.name === name) === false ? `${name} (not saved)` : name])]} />
  );
}
