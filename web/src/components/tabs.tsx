import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';

export interface TabDef { id: string; label: string }

/** WAI-ARIA tabs: arrow keys move between tabs, the panel follows. */
export function Tabs(props: { label: string; tabs: TabDef[]; active: string; onChange: (id: string) => void; children: ComponentChildren; idPrefix: string }) {
  const list = useRef<HTMLDivElement>(null);
  const onKey = (event: KeyboardEvent) => {
    const index = props.tabs.findIndex((t) => t.id === props.active);
    let next = -1;
    if (event.key === 'ArrowRight') next = (index + 1) % props.tabs.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + props.tabs.length) % props.tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = props.tabs.length - 1;
    if (next < 0) return;
    event.preventDefault();
    props.onChange(props.tabs[next]!.id);
    requestAnimationFrame(() => list.current?.querySelector<HTMLElement>(`#${props.idPrefix}-tab-${props.tabs[next]!.id}`)?.focus());
  };
  return (
    <div class="tabs">
      <div role="tablist" aria-label={props.label} ref={list} onKeyDown={onKey}>
        {props.tabs.map((tab) => (
          <button key={tab.id} type="button" role="tab" id={`${props.idPrefix}-tab-${tab.id}`}
            aria-selected={tab.id === props.active} aria-controls={`${props.idPrefix}-panel`}
            tabIndex={tab.id === props.active ? 0 : -1} onClick={() => props.onChange(tab.id)}>
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${props.idPrefix}-panel`} aria-labelledby={`${props.idPrefix}-tab-${props.active}`} class="tabpanel">
        {props.children}
      </div>
    </div>
  );
}
