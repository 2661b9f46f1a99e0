import type { RefObject } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useState } from 'preact/hooks';

// Windowing for long tables: only the rows in and near the viewport are in the DOM, between two spacer rows that
// keep the table (and so the page's scrollbar) as tall as all rows would be. Drawing and laying out 1,000 task rows
// (7,000 cells) took 0.3 to 1.2 s on a loaded machine; a screenful takes a few ms. The rows must all be one height
// (set in CSS, cells clamped to their lines); the height is measured from the drawn rows, so themes, fonts and
// zoom need no constant. The page itself scrolls (the table is not in a scrolling box), so this follows the
// window's scroll and size. Own code rather than a library: with rows of one height in the page's own scroll this
// is a division and two listeners; a general virtualizer (such as @tanstack/virtual-core: rows measured one by
// one, scroll-to, its own scroll observers) would need an adapter to Preact's hooks and put code this list does not
// use on the first screen, which must stay small.

/** Rows drawn past each edge of the viewport: keyboard focus moving row by row (Tab) finds the next row drawn. */
const OVERSCAN = 12;
/** Rows drawn before anything is measured: more than a tall screen holds, so the first paint is full. */
const FIRST_ROWS = 40;
/** A row's `aria-rowindex` less its index in the list: the header is row 1, the first row of the list row 2. */
const ROWINDEX_OFFSET = 2;
/** One row's height before a row is measured (one line of text, padding and border), in CSS pixels. */
const GUESS_PX = 41;

export interface RowWindow {
  /** Index of the first row drawn. */
  start: number;
  /** Index after the last row drawn. */
  end: number;
  /** Height of the spacer standing for the rows before `start`, in pixels. */
  before: number;
  /** Height of the spacer standing for the rows from `end` on, in pixels. */
  after: number;
}

/**
 * Which of `count` rows of `body` to draw for the current scroll position. The drawn rows carry `data-row` and
 * `aria-rowindex` (list index + 2: the header is row 1); the table has `tabindex="-1"`, to take the focus of a
 * row scrolled away. Rows keep their keys, so a focused row stays mounted while it is near the viewport.
 */
export function useRowWindow(count: number, body: RefObject<HTMLElement | null>): RowWindow {
  const [range, setRange] = useState({ start: 0, end: FIRST_ROWS, px: GUESS_PX });

  const update = useCallback(() => {
    const el = body.current;
    if (!el) return;
    // The rows' pitch: first top to last top over the rows between (a row's own box is half a collapsed border
    // short at the ends of a run of rows, and one row's rounded height would add up over 1,000).
    const rows = el.querySelectorAll<HTMLElement>('tr[data-row]');
    let px = range.px;
    if (rows.length > 1) {
      const span = rows[rows.length - 1]!.getBoundingClientRect().top - rows[0]!.getBoundingClientRect().top;
      if (span > 0) px = Math.round((span / (rows.length - 1)) * 100) / 100;
    }
    const top = el.getBoundingClientRect().top;
    const viewport = window.innerHeight || document.documentElement.clientHeight;
    const shown = Math.ceil(viewport / px);
    let start = Math.max(0, Math.floor(-top / px) - OVERSCAN);
    // Past the end (the list got shorter while scrolled down): the last screenful, until the scroll is clamped.
    if (start >= count) start = Math.max(0, count - shown - OVERSCAN);
    const end = Math.max(start, Math.min(count, Math.ceil((viewport - top) / px) + OVERSCAN));
    // Focus in a row about to be dropped (scrolled away with the mouse) goes to the table rather than to nowhere:
    // Tab then goes on from the rows drawn where the reader is.
    const focused = document.activeElement?.closest?.('tr[aria-rowindex]');
    if (focused && el.contains(focused)) {
      const at = Number(focused.getAttribute('aria-rowindex')) - ROWINDEX_OFFSET;
      if (at < start || at >= end) el.closest<HTMLElement>('table[tabindex]')?.focus({ preventScroll: true });
    }
    setRange((r) => (r.start === start && r.end === end && r.px === px ? r : { start, end, px }));
  }, [count, body, range.px]);

  // After every render (the row count changed, rows were drawn to measure) and on scroll and resize, once a frame.
  useLayoutEffect(update);
  useEffect(() => {
    let frame = 0;
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(() => { frame = 0; update(); });
    };
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      cancelAnimationFrame(frame);
    };
  }, [update]);

  const start = Math.min(range.start, count);
  const end = Math.min(Math.max(range.end, start), count);
  return { start, end, before: start * range.px, after: (count - end) * range.px };
}
