import { MAX_MESSAGE_BYTES, type TopicListener } from '../../../kernel/contracts/queue.js';
import { checkQueueName } from './queue-names.js';

/** The message as JSON, after the contract's checks (a topic follows the queue-name rule; a size limit). */
export function encodeMessage(topic: string, message: unknown): string {
  checkQueueName(topic);
  const json = JSON.stringify(message === undefined ? null : message);
  if (Buffer.byteLength(json) > MAX_MESSAGE_BYTES) throw new TypeError(`a message on "${topic}" must be at most ${MAX_MESSAGE_BYTES} bytes as JSON`);
  return json;
}

/**
 * The listeners of each topic in this process: providers receive one stream per topic from the engine and hand
 * each message to every local listener; a listener that throws does not stop the others.
 */
export function createTopicListeners() {
  const topics = new Map<string, Set<TopicListener>>();
  return {
    /** Adds `listener`; true when it is the topic's first (the provider starts listening on the engine). */
    add(topic: string, listener: TopicListener): boolean {
      const set = topics.get(topic) ?? new Set();
      topics.set(topic, set);
      set.add(listener);
      return set.size === 1;
    },
    /** Removes `listener`; true when the topic has none left (the provider stops listening on the engine). */
    remove(topic: string, listener: TopicListener): boolean {
      const set = topics.get(topic);
      if (!set?.delete(listener)) return false;
      if (set.size > 0) return false;
      topics.delete(topic);
      return true;
    },
    /** Hands the message (JSON) to every listener of the topic, each its own copy. */
    deliver(topic: string, json: string): void {
      for (const listener of [...(topics.get(topic) ?? [])]) {
        try {
          listener(JSON.parse(json));
        } catch { /* a listener's failure is its own */ }
      }
    },
    topics: () => [...topics.keys()],
    clear: () => topics.clear(),
  };
}
