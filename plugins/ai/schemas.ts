import { Type, type Static } from 'typebox';

export const ScriptBody = Type.Object({
  description: Type.String({ minLength: 1, maxLength: 10_000, description: 'the data to extract, in plain words' }),
}, { additionalProperties: false });
export type ScriptInput = Static<typeof ScriptBody>;

export const ScriptAnswer = Type.Object({
  script: Type.String({ description: 'the body of an async JavaScript function run in the page; it returns the data' }),
});

/** The task as the dashboard holds it: `url` and `actions` are read, the rest is passed to the browser layer. */
const CaptureTask = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 8192 }),
  actions: Type.Array(Type.Object({ type: Type.String({ minLength: 1 }) }), { maxItems: 1000 }),
});

export const SelectorBody = Type.Object({
  task: CaptureTask,
  actionIndex: Type.Integer({ minimum: 0, description: 'the actions before this index run before the page is captured' }),
  prompt: Type.String({ minLength: 1, maxLength: 2000, description: 'the element, in plain words' }),
}, { additionalProperties: false });
export type SelectorRequest = Static<typeof SelectorBody>;

export const SelectorAnswer = Type.Object({
  selector: Type.String({ description: 'a CSS selector that matched an element of the captured page' }),
});

export { ErrorBody } from '../../kernel/http/error-body.js';
