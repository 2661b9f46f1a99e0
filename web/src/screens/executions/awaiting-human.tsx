import { useEffect, useState } from 'preact/hooks';
import { get, post, seg } from '../../api/client';
import type { Execution } from '../../api/types';
import { announce } from '../../components/dialogs';
import { Button, ErrorBox } from '../../components/ui';
import { formatDate } from '../../lib/format';
import { useAction } from '../../lib/use-async';

type AwaitingHuman = NonNullable<Execution['awaitingHuman']>;

/** How often a running execution's record is read again to see it pause or resume. */
const POLL_MS = 3000;

/**
 * "Waiting for a person": shown while the run waits (outcome so far awaiting_human), with its message, a button that
 * opens a fresh single-use handoff link (the live page with mouse and keys, and Resume) and one that resumes it.
 */
export function AwaitingHumanPanel(props: { execution: Execution; onChange: () => void }) {
  const { execution } = props;
  const [state, setState] = useState<AwaitingHuman | undefined>(execution.awaitingHuman);
  const action = useAction();
  useEffect(() => {
    let stop = false;
    const timer = setInterval(() => {
      void get<Execution>(`/api/executions/${seg(execution.executionId)}`).then((fresh) => {
        if (stop) return;
        setState(fresh.awaitingHuman);
        if (fresh.status !== 'running' && fresh.status !== 'queued') props.onChange();
      }, () => undefined);
    }, POLL_MS);
    return () => { stop = true; clearInterval(timer); };
  }, [execution.executionId]);
  if (!state) return null;

  const open = async () => {
    // Opened at once (a window opened after the request would be blocked), then sent to the new link.
    const view = window.open('about:blank', '_blank');
    if (view) view.opener = null; // the handoff page gets no handle on the dashboard
    const link = await action.run(() => post<{ handoffPath: string }>(`/api/executions/${seg(execution.executionId)}/handoff`));
    if (link && view) view.location.href = link.handoffPath;
    else view?.close();
  };
  const resume = async () => {
    if (await action.run(() => post(`/api/executions/${seg(execution.executionId)}/resume`))) {
      announce('Run resumed');
      setState(undefined);
      props.onChange();
    }
  };
  return (
    <div class="notice awaiting-human" role="status" aria-label="Waiting for a person">
      <p><strong>Waiting for a person</strong>: {state.message}</p>
      <p class="muted">Until {formatDate(state.expiresAt)}; after that the run ends as stopped. The handoff view shows the live page: click and type in it, then press Resume there or here.</p>
      <ErrorBox error={action.error} />
      <div class="toolbar">
        <Button onClick={() => void open()}>Open the handoff view</Button>
        <Button variant="ghost" onClick={() => void resume()}>Resume</Button>
      </div>
    </div>
  );
}
