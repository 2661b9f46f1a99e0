import type { SettingsStore } from '../../kernel/contracts/storage.js';
import type { Instance } from '../instances/decorators.js';

/** The settings key of the records `{ [sessionId]: SessionRecord }`. */
export const SESSION_RECORDS_KEY = 'browserSessionRecords';

/** Where a browser session's browser lives. */
export interface SessionRecord {
  /** The instance holding the browser. */
  instanceId: string;
  createdAtMs: number;
}

type Records = Record<string, SessionRecord>;

function validRecords(value: unknown): Records {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value as Record<string, Partial<SessionRecord>>)
    .filter(([, record]) => typeof record?.instanceId === 'string' && typeof record.createdAtMs === 'number')) as Records;
}

/**
 * The browser sessions of every instance sharing the storage, as records: which instance holds each browser. A
 * record lasts while its holder's instance lease holds (a crashed holder's records are ignored, then dropped); the
 * holder writes its record when the session is answered by POST /api/browser/open and removes it when it closes.
 * One settings key holds them all: an instance holds at most one session.
 */
export class SessionRecords {
  constructor(private readonly settings: SettingsStore, private readonly instance: Instance) {}

  /** Records that this instance holds `sessionId` (and no other session: its managed browser holds one). */
  async hold(sessionId: string): Promise<void> {
    const live = await this.instance.live();
    await this.change((records) => {
      const kept = Object.entries(records).filter(([id, record]) => record.instanceId !== this.instance.id && live.has(record.instanceId) && id !== sessionId);
      const createdAtMs = records[sessionId]?.instanceId === this.instance.id ? records[sessionId].createdAtMs : Date.now();
      return { ...Object.fromEntries(kept), [sessionId]: { instanceId: this.instance.id, createdAtMs } };
    });
  }

  /** Removes this instance's record of `sessionId`, or all of its records without one (at start and at shutdown). */
  async release(sessionId?: string): Promise<void> {
    await this.change((records) => Object.fromEntries(Object.entries(records)
      .filter(([id, record]) => record.instanceId !== this.instance.id || (sessionId !== undefined && id !== sessionId))));
  }

  /** The instance holding `sessionId`, when its lease holds. */
  async holderOf(sessionId: string): Promise<string | undefined> {
    const record = (await this.read())[sessionId];
    if (!record) return undefined;
    return (await this.instance.live()).has(record.instanceId) ? record.instanceId : undefined;
  }

  /** The sessions other live instances hold. */
  async heldElsewhere(): Promise<string[]> {
    const [records, live] = await Promise.all([this.read(), this.instance.live()]);
    return Object.entries(records).filter(([, record]) => record.instanceId !== this.instance.id && live.has(record.instanceId)).map(([id]) => id);
  }

  private async read(): Promise<Records> {
    return validRecords(await this.settings.get(SESSION_RECORDS_KEY));
  }

  private async change(fn: (records: Records) => Records): Promise<void> {
    await this.settings.update<Records>(SESSION_RECORDS_KEY, (current) => fn(validRecords(current)));
  }
}
