import type { Collection, Db } from 'mongodb';
import type { Gate } from './gate.js';
import type { Counter } from './sequence.js';
import type { Stored } from './stored.js';

/** What every collection wrapper of one store shares. */
export interface MongoContext {
  db: Db;
  gate: Gate;
  counters: Collection<Counter>;
}

export const collectionOf = (ctx: MongoContext, name: string): Collection<Stored> => ctx.db.collection<Stored>(name);
