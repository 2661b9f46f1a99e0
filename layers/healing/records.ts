// The records of healing (README "Healing"), one TypeBox schema each: the API answers with them and the healing store
// keeps them. The storage contract sees a task's healing record as an opaque document (`HealingDocument`).
import { Type, type Static } from 'typebox';
import { SCHEMA_NAME } from '../../kernel/contracts/records.js';
import type { DocumentStore, HealingDocument, StorageProvider } from '../../kernel/contracts/storage.js';

const named = <T extends object>(name: string, schema: T): T => Object.assign(schema, { [SCHEMA_NAME]: name });
const Id = Type.String({ minLength: 1, maxLength: 200 });
const DateTime = Type.String({ format: 'date-time', maxLength: 64, description: 'ISO 8601' });

/**
 * What identifies an element when its selector stops matching (layers/healing): taken in the page, compared there.
 * `name` is the accessible name; `attributes` holds id, name, testid, href, placeholder, type, title, alt, for, value
 * and aria-*; `index` is its position among same-tag siblings (from 1); `ancestors` their tags, nearest first;
 * `neighbours` short texts around it.
 */
const S = (maxLength: number) => Type.String({ maxLength });
const Strings = (maxItems: number) => Type.Array(Type.String(), { maxItems });
export const ElementFingerprint = named('ElementFingerprint', Type.Object({
  tag: S(100), role: S(100), name: S(200), text: S(200), attributes: Type.Record(Type.String(), Type.String()),
  classes: Strings(12), index: Type.Integer(), siblings: Type.Integer(), ancestors: Strings(6), landmarks: Strings(8), neighbours: Strings(4),
}, { additionalProperties: true }));
export type ElementFingerprint = Static<typeof ElementFingerprint>;

/** The fingerprint of an action's element when a run succeeded; `taskVersion` is the task's `updatedAt` then. */
export const ActionFingerprint = Type.Object({
  actionIndex: Type.Integer({ minimum: 0 }), selector: Type.String(), fingerprint: ElementFingerprint, taskVersion: Type.String(), savedAt: DateTime,
});
export type ActionFingerprint = Static<typeof ActionFingerprint>;

export const REPAIR_STATUSES = ['proposed', 'applied', 'accepted', 'rejected'] as const;
/**
 * A selector repair a run made (healing): proposed until a person accepts or rejects it, or applied at once. `source`:
 * deterministic (the fingerprint matcher) or ai (a provider's selector, checked on the page). `pageState` digests the
 * page it was made on (a rejected repair is not made again for it); `screenshot` is a run capture of the element,
 * cropped; `taskVersion` the task's `updatedAt` once saved as a version.
 */
export const SelectorRepair = named('SelectorRepair', Type.Object({
  id: Id, actionIndex: Type.Integer({ minimum: 0 }), oldSelector: Type.String(), newSelector: Type.String(), score: Type.Number(),
  runnerUp: Type.Optional(Type.Object({ selector: Type.String(), score: Type.Number() })),
  source: Type.Enum(['deterministic', 'ai']), status: Type.Enum([...REPAIR_STATUSES]), pageState: Type.String(), executionId: Type.String(),
  screenshot: Type.Optional(Type.String()), fingerprint: Type.Optional(ElementFingerprint), createdAt: DateTime,
  decidedAt: Type.Optional(DateTime), taskVersion: Type.Optional(Type.String()),
}, { additionalProperties: false }));
export type SelectorRepair = Static<typeof SelectorRepair>;

/** A task's healing state (storage 2.4, `healing` store), keyed by the task id; `repairs` newest first, capped. */
export interface TaskHealingRecord extends HealingDocument { id: string; fingerprints: ActionFingerprint[]; repairs: SelectorRepair[] }

/** The storage's healing store, typed as this layer writes it; undefined when the storage has none (before 2.4). */
export function healingStoreOf(storage: Pick<StorageProvider, 'healing'>): DocumentStore<TaskHealingRecord> | undefined {
  return storage.healing as DocumentStore<TaskHealingRecord> | undefined;
}
