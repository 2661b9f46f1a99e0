import type { PageDevtools } from '../../kernel/contracts/browser.js';

// Keys that act by their key code (no text): what the DevTools Input domain needs to make them do something.
const KEY_CODES: Record<string, number> = {
  Backspace: 8, Tab: 9, Enter: 13, Escape: 27, PageUp: 33, PageDown: 34, End: 35, Home: 36,
  ArrowLeft: 37, ArrowUp: 38, ArrowRight: 39, ArrowDown: 40, Delete: 46,
};
const MODIFIER_BITS: Record<string, number> = { alt: 1, ctrl: 2, meta: 4, shift: 8 };

export interface KeyInput {
  key: string;
  code?: string;
  modifiers?: Partial<Record<'alt' | 'ctrl' | 'meta' | 'shift', boolean>>;
}

const bitsOf = (modifiers: KeyInput['modifiers']) =>
  Object.entries(modifiers ?? {}).reduce((sum, [name, on]) => sum + (on ? MODIFIER_BITS[name] ?? 0 : 0), 0);

/** A key press (down and up) through the DevTools Input domain: no display or window focus needed. */
export async function pressKey(devtools: PageDevtools, input: KeyInput): Promise<void> {
  const modifiers = bitsOf(input.modifiers);
  const code = KEY_CODES[input.key];
  const printable = [...input.key].length === 1 && (modifiers & ~MODIFIER_BITS.shift!) === 0;
  const text = printable ? input.key : input.key === 'Enter' ? '\r' : undefined;
  const base = { key: input.key, code: input.code ?? '', modifiers, ...(code !== undefined ? { windowsVirtualKeyCode: code, nativeVirtualKeyCode: code } : {}) };
  await devtools.send('Input.dispatchKeyEvent', { type: text ? 'keyDown' : 'rawKeyDown', ...base, ...(text ? { text, unmodifiedText: text } : {}) });
  await devtools.send('Input.dispatchKeyEvent', { type: 'keyUp', ...base });
}

export interface MouseInput {
  action: 'move' | 'down' | 'up' | 'wheel';
  x: number;
  y: number;
  deltaX?: number;
  deltaY?: number;
  /** For down and up: the button (left when absent). */
  button?: 'left' | 'right' | 'middle';
  /** For down and up: 2 for the second press of a double click (the page then sees `dblclick`), 1 when absent. */
  clickCount?: number;
}

const MOUSE_TYPES = { move: 'mouseMoved', down: 'mousePressed', up: 'mouseReleased', wheel: 'mouseWheel' } as const;
const BUTTONS = new Set(['left', 'right', 'middle']);

/** A mouse event through the DevTools Input domain, in CSS pixels of the viewport. */
export async function sendMouse(devtools: PageDevtools, input: MouseInput): Promise<void> {
  const pressed = input.action === 'down' || input.action === 'up';
  const button = input.button !== undefined && BUTTONS.has(input.button) ? input.button : 'left';
  const clickCount = Number.isInteger(input.clickCount) && input.clickCount! >= 1 && input.clickCount! <= 3 ? input.clickCount : 1;
  await devtools.send('Input.dispatchMouseEvent', {
    type: MOUSE_TYPES[input.action], x: input.x, y: input.y,
    ...(pressed ? { button, clickCount } : { button: 'none' }),
    ...(input.action === 'wheel' ? { deltaX: input.deltaX ?? 0, deltaY: input.deltaY ?? 0 } : {}),
  });
}
