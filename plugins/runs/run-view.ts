import { EventEmitter } from 'node:events';
import { actionLabel } from '../../layers/action-label/action-label.js';
import type { BrowserPage } from '../../kernel/contracts/browser.js';

/** The action a run is at, as the live view names it (never a typed value: only the type and the selector). */
export interface ViewedAction {
  index: number;
  type: string;
  label: string;
  selector?: string;
}

export interface RunViewEvents {
  page: [BrowserPage];
  action: [ViewedAction];
  closed: [];
}

/**
 * What a live view may watch of a run: its page once open, and the action it is at. Costs nothing without a
 * viewer: the run only sets two fields and emits to no listener.
 */
export class RunView {
  readonly events = new EventEmitter<RunViewEvents>();
  page: BrowserPage | undefined;
  current: ViewedAction | undefined;
  closed = false;

  constructor() {
    this.events.setMaxListeners(0); // one set per viewer
  }

  open(page: BrowserPage): void {
    this.page = page;
    this.events.emit('page', page);
  }

  action(index: number, type: string, selector: string | undefined): void {
    this.current = { index, type, label: actionLabel(index, type), ...(selector ? { selector } : {}) };
    this.events.emit('action', this.current);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.page = undefined;
    this.events.emit('closed');
    this.events.removeAllListeners();
  }
}
