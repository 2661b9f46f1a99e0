import type { Capture } from '../api/types';
import { formatDate, formatSize } from '../lib/format';

/** Screenshots and recordings; the files are served only to a signed-in browser (same-origin cookie). */
export function CaptureGrid(props: { captures: Capture[]; onDelete?: (capture: Capture) => void }) {
  return (
    <ul class="capture-grid">
      {props.captures.map((capture) => (
        <li key={capture.name} class="capture card">
          {capture.type === 'recording'
            ? <video src={capture.url} controls preload="metadata" aria-label={`Recording ${capture.name}`} />
            : <a href={capture.url} target="_blank" rel="noopener"><img src={capture.url} loading="lazy" alt={`Screenshot ${capture.name}`} /></a>}
          <div class="capture-meta">
            <span class="capture-name" title={capture.name}>{capture.name}</span>
            <span class="muted">{capture.type} · {formatSize(capture.size)} · {formatDate(capture.modified)}</span>
          </div>
          {props.onDelete && (
            <button type="button" class="btn ghost danger-text" aria-label={`Delete ${capture.name}`} onClick={() => props.onDelete!(capture)}>Delete</button>
          )}
        </li>
      ))}
    </ul>
  );
}
