import type { KeyInput, Keyboard } from 'puppeteer';

/**
 * Puppeteer presses one key at a time; Playwright-style chords (`Control+A`) are pressed here as
 * modifiers down, key, modifiers up, so tasks mean the same on both engines.
 */
export async function pressChord(keyboard: Keyboard, chord: string): Promise<void> {
  const parts = chord === '+' ? ['+'] : chord.split('+').map((part) => (part === '' ? '+' : part));
  const key = parts.pop()!;
  const modifiers = parts.map((m) => (m === 'ControlOrMeta' ? 'Control' : m) as KeyInput);
  for (const modifier of modifiers) await keyboard.down(modifier);
  try {
    await keyboard.press(key as KeyInput);
  } finally {
    for (const modifier of modifiers.reverse()) await keyboard.up(modifier);
  }
}

/** Playwright's `xpath=`, `//...` and `text=` forms in Puppeteer's spelling; CSS passes through. */
export function puppeteerSelector(selector: string): string {
  if (selector.startsWith('xpath=')) return `xpath/${selector.slice(6)}`;
  if (selector.startsWith('//') || selector.startsWith('(//')) return `xpath/${selector}`;
  if (selector.startsWith('text=')) return `::-p-text(${JSON.stringify(selector.slice(5))})`;
  // Playwright's role selector, as the studio writes it: role=button[name="Save"].
  const role = /^role=([a-z]+)\[name=("(?:[^"\\]|\\.)*")\]$/.exec(selector);
  if (role) return `::-p-aria([name=${role[2]}][role="${role[1]}"])`;
  return selector;
}
