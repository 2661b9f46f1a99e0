import { useState } from 'preact/hooks';
import { seg } from '../../api/client';
import type { Box, LiveMessage } from './live-socket';
import { useLiveSocket } from './live-socket';
import { LiveFrame } from './live-frame';

/** The live WebSocket of an execution. */
export const executionLivePath = (executionId: string) => `/api/executions/${seg(executionId)}/live`;

/**
 * The live view of a queued or running execution, or of a run to here: its page as the run drives it (headless
 * included), the action it is at, and that action's element outlined. `path` is its WebSocket; `onEnd` is told
 * once the run ended.
 */
export function LiveView(props: { path: string; onEnd?: (status: string) => void }) {
  const [action, setAction] = useState<{ index: number; label: string; selector?: string } | undefined>();
  const [outline, setOutline] = useState<{ index: number; box: Box } | undefined>();
  const [note, setNote] = useState<string | undefined>();
  const { stream } = useLiveSocket(props.path, (message: LiveMessage) => {
    if (message.type === 'action') {
      const m = message as Extract<LiveMessage, { type: 'action'; label: string }>;
      setAction({ index: m.index, label: m.label, selector: m.selector });
      setOutline(undefined);
    } else if (message.type === 'outline') {
      setOutline(message as { index: number; box: Box });
    } else if (message.type === 'end') {
      setNote(`The run ended: ${String(message.status)}.`);
      props.onEnd?.(String(message.status));
    } else if (message.type === 'elsewhere') {
      setNote(`This run is on instance ${String(message.instanceId)}: open the live view through that instance.`);
    } else if (message.type === 'unavailable') {
      setNote(String(message.reason));
    }
  });
  const boxes = outline && action && outline.index === action.index ? [{ box: outline.box, kind: 'action' as const }] : [];
  return (
    <section class="live-panel" aria-labelledby="live-title">
      <h2 id="live-title">Live view</h2>
      <p class="live-status" aria-live="polite">
        {action ? <>Now: <strong>{action.label}</strong>{action.selector && <> on <code>{action.selector}</code></>}</> : stream.connected ? 'Waiting for the run to open its page…' : 'Connecting…'}
      </p>
      {note && <p class="muted" role="status">{note}</p>}
      {!note && <LiveFrame stream={stream} label={action ? `The run's page at ${action.label}` : 'The run\'s page'} boxes={boxes} />}
    </section>
  );
}
