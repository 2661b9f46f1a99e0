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
}

const MOUSE_TYPES = { move: 'mouseMoved', down: 'mousePressed', up: 'mouseReleased', wheel: 'mouseWheel' } as const;

/** A mouse event through the DevTools Input domain, in CSS pixels of the viewport (left button). */
export async function sendMouse(devtools: PageDevtools, input: MouseInput): Promise<void> {
  const pressed = input.action === 'down' || input.action === 'up';
  await devtools.send('Input.dispatchMouseEvent', {
    type: MOUSE_TYPES[input.action], x: input.x, y: input.y,
    ...(pressed ? { button: 'left', clickCount: 1 } : { button: 'none' }),
    ...(input.action === 'wheel' ? { deltaX: input.deltaX ?? 0, deltaY: input.deltaY ?? 0 } : {}),
  });
}
