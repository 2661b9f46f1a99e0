import { Type, type Static } from 'typebox';

/** A task as the editor holds it (saved or not): `url` and `actions` are read, the rest goes to the browser layer. */
const TaskToReplay = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 8192 }),
  actions: Type.Array(Type.Object({ type: Type.String({ minLength: 1 }) }), { maxItems: 1000 }),
}, { description: 'extension: open task.url in a fresh context and run the actions before actionIndex first' });

export const HighlightBody = Type.Object({
  targetHint: Type.String({ minLength: 1, maxLength: 1000, description: 'a CSS selector or plain words naming the element' }),
  url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'load this page first (checked by the outbound rule)' })),
  sessionId: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'inspect this browser session (default: the open one)' })),
  screenshot: Type.Optional(Type.Boolean({ description: 'include a JPEG of the viewport with the top match outlined (default true)' })),
  task: Type.Optional(TaskToReplay),
  actionIndex: Type.Optional(Type.Integer({
    minimum: 0, description: 'with task: the actions before this index (0-based, as generate-selector) run before matching',
  })),
}, { additionalProperties: false });
export type HighlightInput = Static<typeof HighlightBody>;

export const Candidate = Type.Object({
  selector: Type.String({ description: 'a CSS selector matching this element only' }),
  xpath: Type.String(),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  tag: Type.String(),
  text: Type.String({ description: 'its visible text or label, up to 120 characters' }),
});
export type CandidateValue = Static<typeof Candidate>;

export const HighlightAnswer = Type.Object({
  candidates: Type.Array(Candidate, { maxItems: 5, description: 'best first' }),
  screenshot: Type.Optional(Type.String({ description: 'base64 JPEG of the viewport, the top match outlined' })),
});
export type HighlightAnswerValue = Static<typeof HighlightAnswer>;

export { ErrorBody } from '../../kernel/http/error-body.js';
