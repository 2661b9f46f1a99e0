import { Type } from 'typebox';

/** The variables both browser engines read (through the kernel: never process.env). */
export const driverSettings = Type.Object({
  /** A user name or uid[:gid] a root service runs Chromium as (unset: `nobody`); `root` keeps root. Whether it exists is checked at launch. */
  BROWSER_USER: Type.Optional(Type.String({
    pattern: '^([a-z_][a-z0-9_-]{0,31}\\$?|\\d{1,10}(:\\d{1,10})?)$',
    description: 'a user name (e.g. nobody) or uid:gid',
  })),
  /** ffmpeg used to encode run recordings; unset: `ffmpeg` on the PATH. */
  FFMPEG_PATH: Type.Optional(Type.String()),
});
