import { Type, type Static } from 'typebox';

export const OpenSessionBody = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'the page to open (checked by the outbound rule)' }),
  viewport: Type.Optional(Type.Object({
    width: Type.Integer({ minimum: 200, maximum: 3840 }), height: Type.Integer({ minimum: 200, maximum: 2160 }),
  }, { additionalProperties: false })),
}, { additionalProperties: false });
export type OpenSessionInput = Static<typeof OpenSessionBody>;

export const SessionAnswer = Type.Object({
  sessionId: Type.String(),
  url: Type.String({ description: 'where the page is now' }),
  liveUrl: Type.String({ description: 'its WebSocket: frames, input, picking and recording' }),
});

export const SessionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) });

const Candidate = Type.Object({ selector: Type.String(), kind: Type.String(), confidence: Type.Number({ minimum: 0, maximum: 1 }) });

export const RecordingAnswer = Type.Object({
  actions: Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: 'the recorded actions, in order' }),
  variables: Type.Record(Type.String(), Type.String(), { description: 'variables the actions use (a password field\'s), empty: fill them in' }),
  steps: Type.Array(Type.Object({ action: Type.Record(Type.String(), Type.Unknown()), candidates: Type.Array(Candidate) })),
});

export const Success = Type.Object({ success: Type.Literal(true) });

export { ErrorBody } from '../../kernel/http/error-body.js';
