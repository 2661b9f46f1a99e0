import type { BrowserPage } from '../../../kernel/contracts/browser.js';

const MARGIN_PX = 8;
const MAX_SIDE_PX = 1200;

/**
 * A PNG of the element `selector` matches, with a small margin, taken through the page's DevTools session
 * (`Page.captureScreenshot` with a clip); undefined when the engine offers no DevTools session or the element is gone.
 */
export async function cropElement(page: BrowserPage, selector: string): Promise<Buffer | undefined> {
  if (!page.devtools) return undefined;
  const box = await page.evaluate(
    'const el = document.querySelector(args.selector); if (!el) return null; el.scrollIntoView({ block: "center", behavior: "instant" });'
    + 'const r = el.getBoundingClientRect(); return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height };',
    { selector },
  ) as { x: number; y: number; width: number; height: number } | null;
  if (!box || box.width <= 0 || box.height <= 0) return undefined;
  const session = await page.devtools();
  try {
    const clip = {
      x: Math.max(0, box.x - MARGIN_PX), y: Math.max(0, box.y - MARGIN_PX),
      width: Math.min(MAX_SIDE_PX, box.width + 2 * MARGIN_PX), height: Math.min(MAX_SIDE_PX, box.height + 2 * MARGIN_PX), scale: 1,
    };
    const shot = await session.send('Page.captureScreenshot', { format: 'png', clip, captureBeyondViewport: true }) as { data: string };
    return Buffer.from(shot.data, 'base64');
  } finally {
    await session.detach();
  }
}
