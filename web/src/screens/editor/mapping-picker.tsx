import { useEffect, useState } from 'preact/hooks';
import { del, post, seg } from '../../api/client';
import type { ExtractField, ExtractOption } from '../../api/types';
import { Button, ErrorBox } from '../../components/ui';
import { useAction } from '../../lib/use-async';
import { LiveFrame } from '../studio/live-frame';
import { useLiveSocket, type Box } from '../studio/live-socket';

/** What the service answers for a pick (README "Field mapping"). */
export interface MappingPick {
  list?: string; count?: number;
  selector?: string; name?: string; attribute?: string; type?: ExtractField['type']; text?: string; value?: string; rowsWithMatch?: number;
  box: Box;
}

/** What the next click on the page picks: the rows, or the field at this index. */
export type PickTarget = 'rows' | number;

interface MappingPickerProps {
  url: string;
  mapping: ExtractOption;
  target: PickTarget;
  onPicked(target: PickTarget, pick: MappingPick): void;
  onClose(): void;
}

/**
 * The task's page live in a studio session (the service's browser), for picking a field mapping on it: hovering
 * outlines the element under the pointer, a click asks the service for the rows' selector (or the field's, inside
 * its row); "Preview" reads the mapping from the page as a run would.
 */
export function MappingPicker(props: MappingPickerProps) {
  const [session, setSession] = useState<string | undefined>();
  const [hover, setHover] = useState<Box | undefined>();
  const [picked, setPicked] = useState<Box | undefined>();
  const [preview, setPreview] = useState<unknown>();
  const opening = useAction();
  const picking = useAction();
  const previewing = useAction();
  const { stream, send } = useLiveSocket(session && `/api/studio/sessions/${seg(session)}/live`, (message) => {
    const m = message as Record<string, any>;
    if (m.type === 'hello') send({ type: 'mode', mode: 'pick' });
    else if (m.type === 'hover') setHover(m.box ?? undefined);
  });
  useEffect(() => {
    let id: string | undefined;
    void opening.run(() => post<{ sessionId: string }>('/api/studio/sessions', { url: props.url })).then((answer) => {
      id = answer?.sessionId;
      setSession(id);
    });
    return () => { if (id) void del(`/api/studio/sessions/${seg(id)}`).catch(() => undefined); };
  }, [props.url]);

  const pick = async (x: number, y: number) => {
    if (!session) return;
    const rows = props.mapping.list;
    const body = props.target === 'rows' ? { mode: 'row', x, y } : { mode: 'field', x, y, rows };
    const answer = await picking.run(() => post<MappingPick>(`/api/studio/sessions/${seg(session)}/mapping/pick`, body));
    if (answer) {
      setPicked(answer.box);
      props.onPicked(props.target, answer);
    }
  };
  const runPreview = async () => {
    if (!session) return;
    const answer = await previewing.run(() => post<{ data: unknown }>(`/api/studio/sessions/${seg(session)}/mapping/preview`, { extract: props.mapping }));
    if (answer) setPreview(answer.data);
  };
  const what = props.target === 'rows' ? 'a row (any one of them)' : `field “${props.mapping.fields[props.target]?.name ?? ''}” inside a row`;
  const boxes = [...(hover ? [{ box: hover, kind: 'hover' as const }] : []), ...(picked ? [{ box: picked, kind: 'picked' as const }] : [])];
  const rowsOf = Array.isArray(preview) ? preview as Array<Record<string, unknown>> : preview && typeof preview === 'object' ? [preview as Record<string, unknown>] : [];

  return (
    <div class="live-panel mapping-picker" aria-labelledby="mapping-picker-title">
      <h3 id="mapping-picker-title">Pick {what} on the page</h3>
      <ErrorBox error={opening.error} what="Opening the page" />
      {props.target !== 'rows' && !props.mapping.list && <p class="hint">Pick the rows first: a field is picked inside a row.</p>}
      {session && (
        <LiveFrame stream={stream} label="The task's page" boxes={boxes}
          onPointer={(kind, point) => {
            if (kind === 'move') send({ type: 'mouse', action: 'move', ...point });
            else if (kind === 'down') void pick(point.x, point.y);
          }} />
      )}
      <ErrorBox error={picking.error} what="Picking" />
      <div class="row-actions">
        <Button onClick={() => void runPreview()} busy={previewing.busy} disabled={!session}>Preview the data</Button>
        <Button variant="ghost" onClick={props.onClose}>Close the page</Button>
      </div>
      <ErrorBox error={previewing.error} what="Reading the mapping" />
      {preview !== undefined && (
        <table class="mapping-preview" aria-label="Preview of the extracted values">
          <caption class="muted">{Array.isArray(preview) ? `${preview.length} rows` : 'one object'} read from the page now</caption>
          <thead><tr>{props.mapping.fields.map((f) => <th key={f.name}>{f.name}</th>)}</tr></thead>
          <tbody>{rowsOf.slice(0, 20).map((row, i) => (
            <tr key={i}>{props.mapping.fields.map((f) => <td key={f.name}>{JSON.stringify(row[f.name] ?? null)}</td>)}</tr>
          ))}</tbody>
        </table>
      )}
    </div>
  );
}
