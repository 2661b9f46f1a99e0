import { MongoClient, type Db } from 'mongodb';
import type { Logger } from '../../../kernel/contracts/logger.js';
import type { HealingDocument, StorageProvider } from '../../../kernel/contracts/storage.js';
import type { BrowserStateRecord, CredentialRecord, TaskRecord } from '../../../kernel/contracts/records.js';
import { Errors } from '../../../kernel/errors.js';
import { answerWithin } from '../shared/answer-within.js';
import { MongoClaimStore } from './claim-store.js';
import { MongoCounterStore } from './counter-store.js';
import { mongoClientOptions, type MongoTimeouts } from './client-options.js';
import type { MongoContext } from './context.js';
import { MongoDeliveryStore } from './delivery-store.js';
import { MongoDocuments } from './document-collection.js';
import { MongoExecutionStore } from './execution-store.js';
import { Gate } from './gate.js';
import { INDEXES } from './indexes.js';
import { parseMongoUrl } from './mongo-url.js';
import type { Counter } from './sequence.js';
import { MongoSessionStore } from './session-store.js';
import { MongoSettingsStore } from './settings-store.js';
import { MongoUserStore } from './user-store.js';

export interface MongoStorageOptions extends MongoTimeouts {
  /** A mongodb:// or mongodb+srv:// URL (MONGODB_URL). Its password never appears in a log line or an error. */
  url: string;
  /** The database; default: the one named in the URL, else `taskloom`. */
  dbName?: string;
  logger?: Logger;
  /** How long check() waits for `ping`, in ms. Default 3000. */
  checkTimeoutMs?: number;
  /** Connections per server. Default 10. */
  poolSize?: number;
}

export class MongoStorage implements StorageProvider {
  readonly kind = 'mongodb';
  readonly client: MongoClient;
  readonly db: Db;
  readonly gate: Gate;
  readonly users: MongoUserStore;
  readonly sessions: MongoSessionStore;
  readonly settings: MongoSettingsStore;
  readonly tasks: MongoDocuments<TaskRecord>;
  readonly executions: MongoExecutionStore;
  readonly credentials: MongoDocuments<CredentialRecord>;
  readonly healing: MongoDocuments<HealingDocument>;
  readonly browserStates: MongoDocuments<BrowserStateRecord>;
  readonly claims: MongoClaimStore;
  readonly counters: MongoCounterStore;
  readonly deliveries: MongoDeliveryStore;

  constructor(private readonly options: MongoStorageOptions) {
    const { hosts, database, secrets } = parseMongoUrl(options.url);
    const dbName = options.dbName ?? database ?? 'taskloom';
    this.gate = new Gate(`${hosts}/${dbName}`, secrets);
    try {
      this.client = new MongoClient(options.url, mongoClientOptions(options.url, options.poolSize, options));
    } catch (error) {
      const reason = `MONGODB_URL is not usable (${this.gate.scrub(error instanceof Error ? error.message : String(error))})`;
      throw Errors.STORAGE_UNAVAILABLE({ reason });
    }
    this.db = this.client.db(dbName);
    const ctx: MongoContext = { db: this.db, gate: this.gate, counters: this.db.collection<Counter>('counters') };
    this.users = new MongoUserStore(ctx);
    this.sessions = new MongoSessionStore(ctx);
    this.settings = new MongoSettingsStore(ctx);
    this.tasks = new MongoDocuments<TaskRecord>(ctx, 'tasks');
    this.executions = new MongoExecutionStore(ctx);
    this.credentials = new MongoDocuments<CredentialRecord>(ctx, 'credentials');
    this.healing = new MongoDocuments<HealingDocument>(ctx, 'healing');
    this.browserStates = new MongoDocuments<BrowserStateRecord>(ctx, 'browser_states');
    this.claims = new MongoClaimStore(ctx);
    this.counters = new MongoCounterStore(ctx);
    this.deliveries = new MongoDeliveryStore(ctx);
  }

  check(): Promise<void> {
    const timeoutMs = this.options.checkTimeoutMs ?? 3000;
    const late = `MongoDB at ${this.gate.target} did not answer ping within ${timeoutMs} ms: check the server and the network`;
    return answerWithin(() => this.gate.run(() => this.db.command({ ping: 1 })), timeoutMs, late);
  }

  /** Waits for the calls already started, then closes the client. */
  close(): Promise<void> {
    return this.gate.close(() => this.client.close());
  }
}

/** The provider without any I/O: the driver connects on the first call. */
export function createMongoStorage(options: MongoStorageOptions): MongoStorage {
  return new MongoStorage(options);
}

/** Connects and creates the indexes (idempotent); rejects with STORAGE_UNAVAILABLE and a reason otherwise. */
export async function openMongoStorage(options: MongoStorageOptions): Promise<MongoStorage> {
  const storage = createMongoStorage(options);
  try {
    await storage.gate.run(async () => {
      await storage.client.connect();
      for (const [name, indexes] of Object.entries(INDEXES)) await storage.db.collection(name).createIndexes(indexes);
    });
    const { finished, dropped } = await storage.tasks.recoverBatches();
    if (finished + dropped > 0) options.logger?.warn({ finished, dropped }, 'finished the task imports a crash had cut after their commit, removed abandoned ones');
  } catch (error) {
    await storage.close().catch(() => undefined);
    if (Errors.STORAGE_UNAVAILABLE.is(error)) throw error;
    const detail = storage.gate.scrub(error instanceof Error ? error.message : String(error));
    throw Errors.STORAGE_UNAVAILABLE({ reason: `cannot prepare the collections on MongoDB at ${storage.gate.target} (${detail})` });
  }
  options.logger?.info({ target: storage.gate.target }, 'connected to MongoDB');
  return storage;
}
