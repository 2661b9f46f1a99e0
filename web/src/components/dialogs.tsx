import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/** Native <dialog>: modal, focus kept inside, Escape closes; focus returns where it was. */
export function Modal(props: { title: string; open: boolean; onClose: () => void; children: ComponentChildren; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) {
      const previous = document.activeElement as HTMLElement | null;
      dialog.showModal();
      return () => previous?.focus?.();
    }
    if (!props.open && dialog.open) dialog.close();
    return undefined;
  }, [props.open]);
  return (
    <dialog ref={ref} class={props.wide ? 'modal wide' : 'modal'} aria-labelledby="modal-title"
      onClose={() => props.open && props.onClose()} onCancel={(e) => { e.preventDefault(); props.onClose(); }}>
      {props.open && (
        <div class="modal-body">
          <header class="modal-header">
            <h2 id="modal-title">{props.title}</h2>
            <button type="button" class="btn ghost icon" aria-label="Close" onClick={props.onClose}>×</button>
          </header>
          {props.children}
        </div>
      )}
    </dialog>
  );
}

interface ConfirmRequest {
  message: string;
  confirmLabel: string;
  cancelLabel: string;
  danger: boolean;
  /** Focus the safe answer (Enter keeps things as they are). */
  focusCancel: boolean;
  resolve: (ok: boolean) => void;
}
type ConfirmOptions = Partial<Pick<ConfirmRequest, 'confirmLabel' | 'cancelLabel' | 'danger' | 'focusCancel'>>;
let showConfirm: ((request: ConfirmRequest) => void) | undefined;

/** Asks before a destructive step; resolves true when confirmed. */
export function confirmAction(message: string, options: ConfirmOptions = {}): Promise<boolean> {
  return new Promise((resolve) => {
    if (!showConfirm) return resolve(window.confirm(message));
    showConfirm({
      message, confirmLabel: options.confirmLabel ?? 'Confirm', cancelLabel: options.cancelLabel ?? 'Cancel',
      danger: options.danger ?? true, focusCancel: options.focusCancel ?? false, resolve,
    });
  });
}

export function ConfirmHost() {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  useEffect(() => {
    showConfirm = setRequest;
    return () => { showConfirm = undefined; };
  }, []);
  const finish = (ok: boolean) => {
    request?.resolve(ok);
    setRequest(null);
  };
  return (
    <Modal title="Please confirm" open={request !== null} onClose={() => finish(false)}>
      <p>{request?.message}</p>
      <div class="actions-row">
        <button type="button" class="btn ghost" autoFocus={request?.focusCancel} onClick={() => finish(false)}>{request?.cancelLabel}</button>
        <button type="button" class={`btn ${request?.danger ? 'danger' : 'primary'}`} autoFocus={!request?.focusCancel}
          onClick={() => finish(true)}>{request?.confirmLabel}</button>
      </div>
    </Modal>
  );
}

let pushMessage: ((text: string) => void) | undefined;

/** A short message read by screen readers and shown as a toast. */
export function announce(text: string): void {
  pushMessage?.(text);
}

export function Announcer() {
  const [messages, setMessages] = useState<Array<{ id: number; text: string }>>([]);
  useEffect(() => {
    let next = 0;
    pushMessage = (text) => {
      const id = ++next;
      setMessages((list) => [...list.slice(-2), { id, text }]);
      setTimeout(() => setMessages((list) => list.filter((m) => m.id !== id)), 4000);
    };
    return () => { pushMessage = undefined; };
  }, []);
  return (
    <div class="toasts" role="status" aria-live="polite">
      {messages.map((m) => <div key={m.id} class="toast">{m.text}</div>)}
    </div>
  );
}
