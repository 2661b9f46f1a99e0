import { Type, type Static } from 'typebox';

/**
 * `compare.screenshots`: which screenshot actions are compared with the same action's screenshot of the previous
 * successful run, and when one counts as changed. Task-level rather than a flag on the action: the Action record
 * is a kernel contract every tool writes (recorder, imports, CLI), and the thresholds belong with the rest of
 * `compare`. README "Run intelligence".
 */
export const ScreenshotCompare = Type.Object({
  actions: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 999 }), { maxItems: 50, description: 'indexes (from 0) of the screenshot actions to compare; absent: every screenshot action' })),
  pixelThreshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: "pixelmatch's per-pixel colour tolerance, 0 (exact) to 1; default 0.1" })),
  minChangedPct: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'a screenshot counts as changed when more than this share of its pixels (percent) differs; default 0' })),
}, { additionalProperties: false, description: 'screenshot comparison (pixelmatch)' });
export type ScreenshotCompare = Static<typeof ScreenshotCompare>;

/**
 * The task option `compare`: how a successful run's rows are matched with the previous successful run's
 * (result-diff.ts). Outside the kernel's Task record, as `antiBot` is.
 */
export const CompareOption = Type.Object({
  key: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 20, description: 'fields (dotted paths) that identify a row; without them a row is identified by all its fields, so rows are only added or removed, never changed' })),
  ignore: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100, description: 'top-level fields left out of the comparison (a timestamp, a session id)' })),
  screenshots: Type.Optional(ScreenshotCompare),
}, { additionalProperties: false, description: 'change detection against the previous successful run (README: Run intelligence)' });
export type CompareOption = Static<typeof CompareOption>;
