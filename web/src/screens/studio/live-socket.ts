import { useEffect, useRef, useState } from 'preact/hooks';

export interface Box { x: number; y: number; width: number; height: number }

/** What the service's live WebSockets say (frames aside, which are binary JPEG messages). */
export type LiveMessage =
  | { type: 'hello'; executionId?: string; status?: string }
  | { type: 'viewport'; width: number; height: number }
  | { type: 'action'; index: number; label: string; actionType: string; selector?: string }
  | { type: 'outline'; index: number; box: Box }
  | { type: 'unavailable'; reason: string }
  | { type: 'elsewhere'; instanceId: string }
  | { type: 'end'; status: string }
  | { type: string; [key: string]: unknown };

export interface LiveStream {
  /** An object URL of the latest JPEG frame. */
  frame?: string;
  frames: number;
  viewport?: { width: number; height: number };
  connected: boolean;
  closed: boolean;
}

/** The WebSocket URL of a service path, on this page's origin (the session cookie rides along). */
export function socketUrl(path: string): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
}

/**
 * Opens the live WebSocket at `path` (none while `path` is undefined): frames become object URLs (the previous one
 * released), JSON messages go to `onMessage`. Returns the stream's state and a `send` for input messages.
 */
export function useLiveSocket(path: string | undefined, onMessage: (message: LiveMessage) => void) {
  const [stream, setStream] = useState<LiveStream>({ frames: 0, connected: false, closed: false });
  const socket = useRef<WebSocket | null>(null);
  const handler = useRef(onMessage);
  handler.current = onMessage;

  useEffect(() => {
    if (!path) return;
    const ws = new WebSocket(socketUrl(path));
    ws.binaryType = 'blob';
    socket.current = ws;
    let last: string | undefined;
    ws.onopen = () => setStream((s) => ({ ...s, connected: true }));
    ws.onclose = () => setStream((s) => ({ ...s, connected: false, closed: true }));
    ws.onmessage = (event: MessageEvent) => {
      if (typeof event.data === 'string') {
        const message = JSON.parse(event.data) as LiveMessage;
        if (message.type === 'viewport') {
          const { width, height } = message as { width: number; height: number };
          setStream((s) => ({ ...s, viewport: { width, height } }));
        }
        handler.current(message);
        return;
      }
      const url = URL.createObjectURL(event.data as Blob);
      const previous = last;
      last = url;
      setStream((s) => ({ ...s, frame: url, frames: s.frames + 1 }));
      // Released a little later: the <img> may still be decoding it.
      if (previous) setTimeout(() => URL.revokeObjectURL(previous), 1000);
    };
    return () => {
      ws.close();
      socket.current = null;
      if (last) URL.revokeObjectURL(last);
    };
  }, [path]);

  const send = (message: unknown) => {
    if (socket.current?.readyState === WebSocket.OPEN) socket.current.send(JSON.stringify(message));
  };
  return { stream, send };
}
