import type { Collection } from 'mongodb';

export interface Counter {
  _id: string;
  value: number;
}

/** The next insertion number of `name`, from an atomic $inc on one counter document (shared by every instance). */
export async function nextSeq(counters: Collection<Counter>, name: string): Promise<number> {
  const doc = await counters.findOneAndUpdate({ _id: name }, { $inc: { value: 1 } }, { upsert: true, returnDocument: 'after' });
  if (!doc) throw new Error(`the ${name} counter was not returned by MongoDB`);
  return doc.value;
}
