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

export const TaskGoalBody = Type.Object({
  goal: Type.String({ minLength: 1, maxLength: 2000, description: 'what the task should do, in plain words' }),
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'the start page, absolute http(s)' }),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  maxSteps: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, description: 'most actions to generate; default 8' })),
}, { additionalProperties: false });

export const GeneratedTaskAnswer = Type.Object({
  task: Type.Object({ id: Type.String(), name: Type.String(), url: Type.String(), actions: Type.Array(Type.Unknown()) }, { additionalProperties: true }),
  aiCalls: Type.Integer({ description: 'provider calls made' }),
  refused: Type.Array(Type.String(), { description: 'proposals the live page refused' }),
});

export const SelectorAnswer = Type.Object({
  selector: Type.String({ description: 'a CSS selector that matched an element of the captured page' }),
});

export { ErrorBody } from '../../kernel/http/error-body.js';
