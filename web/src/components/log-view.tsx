import { useEffect, useRef } from 'preact/hooks';
import { actionNumber } from '../../../layers/action-label/action-label.js';
import type { LogLine } from '../api/types';

const time = (at: string) => {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : date.toLocaleTimeString(undefined, { hour12: false });
};

/** Log lines; a live log follows its end unless the reader scrolled up. */
export function LogView(props: { lines: LogLine[]; live?: boolean; label?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  useEffect(() => {
    const el = box.current;
    if (el && props.live && stick.current) el.scrollTop = el.scrollHeight;
  }, [props.lines.length, props.live]);
  return (
    <div class="log" ref={box} role="log" aria-live={props.live ? 'polite' : 'off'} aria-label={props.label ?? 'Log'} tabIndex={0}
      onScroll={(e) => {
        const el = e.currentTarget as HTMLDivElement;
        stick.current = el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
      }}>
      {props.lines.length === 0 && <p class="muted">No log lines{props.live ? ' yet' : ''}.</p>}
      {props.lines.map((line, i) => (
        <div key={i} class={`log-line level-${line.level}`}>
          <time dateTime={line.at}>{time(line.at)}</time>
          <span class="level">{line.level}</span>
          {line.actionIndex !== undefined && <span class="muted">#{actionNumber(line.actionIndex)}</span>}
          <span class="message">{line.message}</span>
        </div>
      ))}
    </div>
  );
}
