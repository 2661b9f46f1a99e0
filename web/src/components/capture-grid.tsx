import type { Capture } from '../api/types';
import { formatDate, formatSize } from '../lib/format';

/**
 * Screenshots, recordings and downloads (a link to the file); the files are served only to a signed-in browser (same-origin cookie). With
 * `onOpen`, a screenshot opens in the viewer instead of a new tab.
 */
export function CaptureGrid(props: { captures: Capture[]; onDelete?: (capture: Capture) => void; onOpen?: (index: number) => void }) {
  return (
    <ul class="capture-grid">
      {props.captures.map((capture, index) => {
        const image = <img src={capture.url} loading="lazy" alt={`Screenshot ${capture.name}`} />;
        return (
          <li key={capture.name} class="capture card">
            {capture.type === 'download'
              ? <a href={capture.url} download={capture.fileName} class="capture-file">{capture.fileName ?? capture.name}</a>
              : capture.type === 'recording'
              ? <video src={capture.url} controls preload="metadata" aria-label={`Recording ${capture.name}`} />
              : props.onOpen
                ? <button type="button" class="capture-open" aria-label={`View ${capture.name} full size`} onClick={() => props.onOpen!(index)}>{image}</button>
                : <a href={capture.url} target="_blank" rel="noopener">{image}</a>}
            <div class="capture-meta">
              {capture.taskName && <span class="capture-task" title={capture.taskName}>{capture.taskName}</span>}
              <span class="capture-name" title={capture.name}>{capture.name}</span>
              <span class="muted">{capture.type} · {formatSize(capture.size)} · {formatDate(capture.modified)}</span>
            </div>
            <div class="row-actions">
              {capture.type === 'recording' && props.onOpen && (
                <button type="button" class="btn ghost" aria-label={`View ${capture.name} full size`} onClick={() => props.onOpen!(index)}>View</button>
              )}
              {props.onDelete && (
                <button type="button" class="btn ghost danger-text" aria-label={`Delete ${capture.name}`} onClick={() => props.onDelete!(capture)}>Delete</button>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
