import { Type } from 'typebox';

export const OpenBody = Type.Object({
  headless: Type.Optional(Type.Boolean({
    description: 'true: start headless at once; otherwise a headful start is tried first and falls back to headless',
  })),
}, { additionalProperties: false });

export const OpenAnswer = Type.Object({
  sessionId: Type.String(),
  wsEndpoint: Type.String({
    description: 'DevTools WebSocket URL on this service (Playwright connectOverCDP, Puppeteer connect). Its token works once, '
      + 'within 60 s; without it the connection needs the API key header or a session cookie',
  }),
  headless: Type.Boolean({ description: 'whether the browser runs headless' }),
});

export const CloseBody = Type.Object({
  sessionId: Type.Optional(Type.String({
    minLength: 1, maxLength: 256, description: 'the session to end; without it, the open one (there is at most one)',
  })),
}, { additionalProperties: false });
export const Success = Type.Object({ success: Type.Boolean() });
export { ErrorBody } from '../../kernel/http/error-body.js';
