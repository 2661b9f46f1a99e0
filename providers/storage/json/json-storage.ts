import fs, { constants } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../../kernel/contracts/logger.js';
import type { HealingDocument, StorageProvider } from '../../../kernel/contracts/storage.js';
import { Errors } from '../../../kernel/errors.js';
import { JsonClaimStore } from './claim-store.js';
import { JsonCounterStore } from './counter-store.js';
import { DocumentCollection } from './document-collection.js';
import { JsonDeliveryStore } from './delivery-store.js';
import { STORE_DIR_MODE, STORE_FILE_MODE, syncDir } from './file-io.js';
import { JsonExecutionStore } from './execution-store.js';
import { claimDir } from './open-dirs.js';
import { JsonSessionStore } from './session-store.js';
import { JsonSettingsStore } from './settings-store.js';
import { silentLogger } from './silent-logger.js';
import { StoreGate, type JournalBacked, type StoreContext } from './store-context.js';
import { JsonUserStore } from './user-store.js';
import type { BrowserStateRecord, CredentialRecord, TaskRecord } from '../../../kernel/contracts/records.js';

export interface JsonStorageOptions {
  /** Every file of the store lives directly in this directory (created when missing). */
  dir: string;
  logger?: Logger;
  /** A journal is compacted only once it is at least this big (bytes) and mostly dead lines. Default 1 MiB. */
  compactMinBytes?: number;
}

const DEFAULT_COMPACT_MIN_BYTES = 1024 * 1024;
let probeCount = 0;

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Opens (or creates) the store in `options.dir`, replaying every journal. */
export async function openJsonStorage(options: JsonStorageOptions): Promise<StorageProvider> {
  const dir = path.resolve(options.dir);
  const release = claimDir(dir);
  const ctx: StoreContext = {
    dir,
    logger: options.logger ?? silentLogger,
    gate: new StoreGate(dir),
    compactMinBytes: options.compactMinBytes ?? DEFAULT_COMPACT_MIN_BYTES,
  };
  const storage = new JsonStorage(ctx, release);
  try {
    const created = await fs.mkdir(dir, { recursive: true });
    // Only the store's own folder: DATA_DIR keeps its mode (other folders in it may serve other users).
    if (created) await fs.chmod(dir, STORE_DIR_MODE);
    if (created) await syncCreatedDirs(created, dir);
    await Promise.all(storage.parts.map((part) => part.open()));
  } catch (error) {
    await storage.close().catch(() => undefined);
    throw Errors.STORAGE_UNAVAILABLE({ reason: `cannot open the json store at ${dir} (${reasonOf(error)}): check the path and its permissions` }, { cause: error });
  }
  return storage;
}

/** New directories are durable only once each parent's entry is flushed. */
async function syncCreatedDirs(topmost: string, dir: string): Promise<void> {
  for (let current = dir; ; current = path.dirname(current)) {
    await syncDir(path.dirname(current));
    if (current === topmost) return;
  }
}

class JsonStorage implements StorageProvider {
  readonly kind = 'json';
  readonly users: JsonUserStore;
  readonly sessions: JsonSessionStore;
  readonly settings: JsonSettingsStore;
  readonly tasks: DocumentCollection<TaskRecord>;
  readonly executions: JsonExecutionStore;
  readonly credentials: DocumentCollection<CredentialRecord>;
  readonly healing: DocumentCollection<HealingDocument>;
  readonly browserStates: DocumentCollection<BrowserStateRecord>;
  readonly claims: JsonClaimStore;
  readonly counters: JsonCounterStore;
  readonly deliveries: JsonDeliveryStore;
  readonly parts: JournalBacked[];
  private closing: Promise<void> | undefined;

  constructor(
    private readonly ctx: StoreContext,
    private readonly release: () => void,
  ) {
    this.users = new JsonUserStore(ctx);
    this.sessions = new JsonSessionStore(ctx);
    this.settings = new JsonSettingsStore(ctx);
    this.tasks = new DocumentCollection<TaskRecord>(ctx, 'tasks');
    this.executions = new JsonExecutionStore(ctx);
    this.credentials = new DocumentCollection<CredentialRecord>(ctx, 'credentials');
    this.healing = new DocumentCollection<HealingDocument>(ctx, 'healing');
    this.browserStates = new DocumentCollection<BrowserStateRecord>(ctx, 'browser-states');
    this.claims = new JsonClaimStore(ctx);
    this.counters = new JsonCounterStore(ctx.gate);
    this.deliveries = new JsonDeliveryStore(ctx);
    this.parts = [this.users, this.sessions, this.settings, this.tasks, this.executions, this.credentials, this.healing, this.browserStates, this.claims, this.deliveries];
  }

  async check(): Promise<void> {
    this.ctx.gate.assertOpen();
    const probe = path.join(this.ctx.dir, `.check-${process.pid}-${(probeCount += 1)}`);
    try {
      await fs.access(this.ctx.dir, constants.R_OK | constants.W_OK);
      await fs.writeFile(probe, '', { mode: STORE_FILE_MODE });
      await fs.rm(probe, { force: true });
    } catch (error) {
      throw Errors.STORAGE_UNAVAILABLE(
        { reason: `${this.ctx.dir} is not readable and writable (${(error as NodeJS.ErrnoException).code ?? reasonOf(error)}): check the volume and its permissions` },
        { cause: error },
      );
    }
    await Promise.all(this.parts.map((part) => part.check()));
  }

  async compact(stores: readonly ('settings' | 'credentials')[]): Promise<void> {
    if (stores.includes('settings')) await this.settings.compactNow();
    if (stores.includes('credentials')) await this.credentials.compactNow();
  }

  close(): Promise<void> {
    this.closing ??= this.closeParts();
    return this.closing;
  }

  private async closeParts(): Promise<void> {
    this.ctx.gate.close();
    const results = await Promise.allSettled(this.parts.map((part) => part.close()));
    this.release();
    for (const result of results) {
      if (result.status === 'rejected') this.ctx.logger.warn({ err: result.reason }, 'closing a journal of the json store failed');
    }
  }
}
