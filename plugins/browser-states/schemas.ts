import { Type } from 'typebox';
import { BrowserStateName, BrowserStateSummary } from '../../kernel/contracts/records.js';

export { ErrorBody } from '../../kernel/http/error-body.js';
export { BrowserStateSummary };

export const StateParams = Type.Object({ name: BrowserStateName });

/** `POST /api/browser-states`: the state of a live session's window, saved under `name` (replacing one of that name). */
export const SaveBody = Type.Object({
  name: BrowserStateName,
  fromSession: Type.String({ minLength: 1, maxLength: 256, description: 'an open browser session (`sessionId` of POST /api/browser/open)' }),
}, { additionalProperties: false });

export const StateList = Type.Object({ states: Type.Array(BrowserStateSummary) });
export const Deleted = Type.Object({ success: Type.Literal(true) });
