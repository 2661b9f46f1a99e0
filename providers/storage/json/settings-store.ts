import type { SettingsStore } from '../../../kernel/contracts/storage.js';
import { DocumentCollection } from './document-collection.js';
import type { JournalBacked, StoreContext } from './store-context.js';

interface SettingDoc {
  id: string;
  value?: unknown;
}

/** Each key is one document `{ id: key, value }`; an `undefined` value reads back as unset. */
export class JsonSettingsStore implements SettingsStore, JournalBacked {
  private readonly docs: DocumentCollection<SettingDoc>;

  constructor(private readonly ctx: StoreContext) {
    this.docs = new DocumentCollection<SettingDoc>(ctx, 'settings');
  }

  open(): Promise<void> {
    return this.docs.open();
  }

  check(): Promise<void> {
    return this.docs.check();
  }

  close(): Promise<void> {
    return this.docs.close();
  }

  async get<V = unknown>(key: string): Promise<V | undefined> {
    this.ctx.gate.assertOpen();
    const doc = this.docs.peek(key);
    await this.docs.settled();
    return doc && (structuredClone(doc.value) as V | undefined);
  }

  async set<V>(key: string, value: V): Promise<void> {
    this.ctx.gate.assertOpen();
    await this.docs.stagePut({ id: key, value }).durable;
  }

  async update<V>(key: string, change: (current: V | undefined) => V): Promise<V> {
    this.ctx.gate.assertOpen();
    const current = this.docs.peek(key);
    // Synchronous from read to staged write: concurrent updates of one key cannot lose a change.
    const next = change(current && (structuredClone(current.value) as V | undefined));
    const staged = this.docs.stagePut({ id: key, value: next });
    await staged.durable;
    return structuredClone(staged.doc.value) as V;
  }

  delete(key: string): Promise<boolean> {
    return this.docs.delete(key);
  }

  /** Rewrites the journal without superseded lines (see DocumentCollection.compactNow). */
  compactNow(): Promise<void> {
    return this.docs.compactNow();
  }

  async keys(): Promise<string[]> {
    this.ctx.gate.assertOpen();
    const keys = [...this.docs.values()].filter((doc) => doc.value !== undefined).map((doc) => doc.id);
    await this.docs.settled();
    return keys;
  }
}
