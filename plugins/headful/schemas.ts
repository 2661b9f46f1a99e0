import { Type } from 'typebox';

export const HeadfulStatusBody = Type.Object({
  useNovnc: Type.Boolean(),
  novncPort: Type.Optional(Type.Integer({ description: 'only when USE_NOVNC is on' })),
  isRunning: Type.Optional(Type.Boolean({ description: 'only when USE_NOVNC is on: the display, VNC server and noVNC all run' })),
});

export const VncPasswordBody = Type.Object({
  password: Type.String({ description: 'the VNC password of the headful session (generated once, kept in the store)' }),
});

export { ErrorBody } from '../../kernel/http/error-body.js';
