import type { PageDevtools } from '../../kernel/contracts/browser.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

// Runs in the page: the first element a task selector names (CSS, `xpath=` / `//...`, `text=`), as a box in CSS
// pixels of the viewport, or null. Read-only: the page under test is never changed.
const BOX_OF = String.raw`(selector) => {
  let el = null;
  try {
    if (selector.startsWith('xpath=') || selector.startsWith('//') || selector.startsWith('(//')) {
      const path = selector.startsWith('xpath=') ? selector.slice(6) : selector;
      el = document.evaluate(path, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
    } else if (selector.startsWith('text=')) {
      const text = selector.slice(5).replace(/^"|"$/g, '').toLowerCase();
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.textContent.toLowerCase().includes(text)) { el = node.parentElement; break; }
      }
    } else {
      el = document.querySelector(selector);
    }
  } catch (e) { return null; }
  if (!el || !el.getBoundingClientRect) return null;
  const r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) return null;
  return { x: r.left, y: r.top, width: r.width, height: r.height };
}`;

/** Where the element a selector names is on the page now; undefined when it is not there (yet) or the page is busy. */
export async function boxOf(session: PageDevtools, selector: string): Promise<Box | undefined> {
  const answer = await session.send('Runtime.evaluate', {
    expression: `(${BOX_OF})(${JSON.stringify(selector)})`, returnByValue: true, silent: true,
  }).catch(() => undefined) as { result?: { value?: Box | null } } | undefined;
  return answer?.result?.value ?? undefined;
}
