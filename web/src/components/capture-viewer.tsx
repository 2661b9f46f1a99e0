import { useEffect } from 'preact/hooks';
import { seg } from '../api/client';
import type { Capture } from '../api/types';
import { formatDate, formatSize } from '../lib/format';
import { linkClick } from '../lib/router';
import { Modal } from './dialogs';

/** One capture full size, with Previous/Next (and the arrow keys) through `captures`; Escape closes. */
export function CaptureViewer(props: { captures: Capture[]; index: number; onIndex: (index: number) => void; onClose: () => void }) {
  const { captures, index } = props;
  const capture = captures[index];
  const step = (by: number) => {
    const next = index + by;
    if (next >= 0 && next < captures.length) props.onIndex(next);
  };
  // On the document: the arrows work wherever focus sits in the dialog (it starts on Close).
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      // A focused video or field keeps its own arrow keys (seeking, moving the caret).
      if ((event.target as HTMLElement).matches('video, input, select, textarea')) return;
      if (event.key === 'ArrowLeft') step(-1);
      else if (event.key === 'ArrowRight') step(1);
      else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  });
  if (!capture) return null;
  return (
    <Modal wide open title={`${capture.type === 'recording' ? 'Recording' : 'Screenshot'} ${index + 1} of ${captures.length}`} onClose={props.onClose}>
      <div class="capture-viewer">
        <p class="muted">
          {capture.taskName && <><strong>{capture.taskName}</strong> · </>}
          <a href={`/executions/${seg(capture.runId)}`} onClick={(e) => { props.onClose(); linkClick(e); }}>Open the run</a>
          {' · '}{capture.name} · {formatSize(capture.size)} · {formatDate(capture.modified)}
        </p>
        {capture.type === 'recording'
          ? <video key={capture.name} src={capture.url} controls aria-label={`Recording ${capture.name}`} />
          : <img key={capture.name} src={capture.url} alt={`Full size ${capture.name}`} />}
        <div class="actions-row">
          <button type="button" class="btn" disabled={index === 0} onClick={() => step(-1)} aria-keyshortcuts="ArrowLeft">Previous</button>
          <a class="btn ghost" href={capture.url} target="_blank" rel="noopener">Open the file</a>
          <button type="button" class="btn" disabled={index === captures.length - 1} onClick={() => step(1)} aria-keyshortcuts="ArrowRight">Next</button>
        </div>
      </div>
    </Modal>
  );
}
