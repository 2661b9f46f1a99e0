import { createParser } from 'eventsource-parser';

export interface SseEvent {
  event: string;
  /** The `id:` field, when the event had one. */
  id?: string;
  data: any;
  /** Date.now() when it arrived. */
  receivedAt: number;
}

export interface SseStream {
  status: number;
  /** The events so far, growing as they arrive. */
  seen: SseEvent[];
  /** Resolves once the server ends the stream. */
  ended: Promise<SseEvent[]>;
  close(): void;
}

/** Opens `GET url` as server-sent events with the API key (and any extra headers), recording each event as it arrives. */
export async function openSse(url: string, apiKey: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { 'x-api-key': apiKey, accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const seen: SseEvent[] = [];
  const parser = createParser({
    onEvent: ({ event, id, data }) => { seen.push({ event: event ?? 'message', ...(id === undefined ? {} : { id }), data: JSON.parse(data), receivedAt: Date.now() }); },
  });
  const ended = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
    return seen;
  })();
  return { status: response.status, seen, ended, close: () => controller.abort() };
}
