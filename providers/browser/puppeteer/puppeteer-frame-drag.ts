import type { ElementHandle } from 'puppeteer';

/**
 * An HTML5 drag and drop inside a frame, as the page's own drag events: dragstart on the source, dragenter and
 * dragover on the target, drop when the target accepts it (cancels dragover), dragend; one DataTransfer carries
 * what dragstart set to the drop. Used for draggable sources in frames because a mouse drag that starts an HTML5
 * drag in an out-of-process (cross-origin) frame closes the full Chromium 156 in headless mode (the browser
 * process ends; the headless shell and Playwright's intercepted drags are not affected). Resolves false when the
 * source is not draggable: a mouse drag then starts no HTML5 drag and is safe.
 */
export async function dragInFrame(source: ElementHandle<Element>, target: ElementHandle<Element>): Promise<boolean> {
  // No named function inside: a loader that keeps names (tsx) would wrap it in a __name() the page lacks.
  return source.evaluate((from, onto) => {
    const dragged = from instanceof HTMLElement && from.draggable ? from : from.closest<HTMLElement>('[draggable="true"]');
    if (!dragged) return false;
    const data = new DataTransfer();
    const events: Array<[Element, string]> = [[dragged, 'dragstart'], [onto, 'dragenter'], [onto, 'dragover'], [onto, 'drop'], [dragged, 'dragend']];
    for (const [el, type] of events) {
      const box = el.getBoundingClientRect();
      const event = new DragEvent(type, {
        bubbles: true, cancelable: true, composed: true, dataTransfer: data,
        clientX: box.left + box.width / 2, clientY: box.top + box.height / 2,
      });
      const allowed = el.dispatchEvent(event);
      if (type === 'dragstart' && !allowed) return true; // the page refused the drag
      if (type === 'dragover' && allowed) events.splice(3, 1); // not accepted: no drop
    }
    return true;
  }, target);
}
