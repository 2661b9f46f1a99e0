import { seg } from '../api/client';
import type { RunResult } from '../api/types';

/** The trace viewer served by the service, opening a run's trace from the same origin (nothing leaves the machine). */
export const traceViewerUrl = (trace: string) => `/trace-viewer/?trace=${encodeURIComponent(`/api/data/captures/${seg(trace)}`)}`;

/** "Open trace" (in a new tab) when the run kept a Playwright trace. */
export function TraceLink(props: { result: RunResult }) {
  const { trace } = props.result;
  if (typeof trace !== 'string') return null;
  return <a class="btn ghost" href={traceViewerUrl(trace)} target="_blank" rel="noopener" title={trace}>Open trace</a>;
}

/** The screenshot a failed run took of its page, when it has one. */
export function FailureShot(props: { result: RunResult }) {
  const name = props.result.error?.screenshot;
  if (typeof name !== 'string') return null;
  const url = `/api/data/captures/${seg(name)}`;
  return (
    <figure class="failure-shot">
      <a href={url} target="_blank" rel="noopener"><img src={url} alt="Screenshot of the page when the run failed" /></a>
      <figcaption class="muted">The page when the run failed ({name})</figcaption>
    </figure>
  );
}
