import { Type, type Static } from 'typebox';
import { ExtractOption } from '../../layers/field-mapping/extract-option.js';
import { BrowserStateName, BrowserStateSummary } from '../../kernel/contracts/records.js';

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

/** `POST /api/studio/sessions/{id}/browser-state` (README "Browser states"). */
export const SaveStateBody = Type.Object({ name: BrowserStateName }, { additionalProperties: false });
export { BrowserStateSummary };

const Candidate = Type.Object({ selector: Type.String(), kind: Type.String(), confidence: Type.Number({ minimum: 0, maximum: 1 }) });

export const RecordingAnswer = Type.Object({
  actions: Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: 'the recorded actions, in order' }),
  variables: Type.Record(Type.String(), Type.String(), { description: 'variables the actions use (a password field\'s), empty: fill them in' }),
  steps: Type.Array(Type.Object({ action: Type.Record(Type.String(), Type.Unknown()), candidates: Type.Array(Candidate) })),
});

export const FingerprintsBody = Type.Object({
  taskId: Type.String({ minLength: 1, maxLength: 200, description: 'the task saved from the session' }),
}, { additionalProperties: false });

export const FingerprintsAnswer = Type.Object({
  stored: Type.Array(Type.Object({ actionIndex: Type.Integer(), selector: Type.String() }), { description: 'the actions whose element\'s fingerprint was stored now' }),
});

export const Success = Type.Object({ success: Type.Literal(true) });

export { ErrorBody } from '../../kernel/http/error-body.js';

export const MappingPickBody = Type.Object({
  mode: Type.Union([Type.Literal('row'), Type.Literal('field')], { description: 'row: a list selector for the picked row and its like siblings; field: a selector relative to the enclosing row' }),
  x: Type.Optional(Type.Number({ description: 'the picked point, in CSS pixels of the live view (as the socket\'s pick)' })),
  y: Type.Optional(Type.Number()),
  selector: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'instead of x and y: the picked element as a page selector (its first match)' })),
  rows: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'mode field: the mapping\'s list selector' })),
}, { additionalProperties: false });
export type MappingPickInput = Static<typeof MappingPickBody>;

const PickBox = Type.Object({ x: Type.Number(), y: Type.Number(), width: Type.Number(), height: Type.Number() });

export const MappingPickAnswer = Type.Object({
  list: Type.Optional(Type.String({ description: 'mode row: the rows\' selector' })),
  count: Type.Optional(Type.Integer({ description: 'mode row: how many elements it matches on the page now (≥ 2)' })),
  selector: Type.Optional(Type.String({ description: 'mode field: relative to the row (empty: the row itself)' })),
  name: Type.Optional(Type.String({ description: 'mode field: a suggested field name' })),
  attribute: Type.Optional(Type.String({ description: 'mode field: suggested (href of a link, src of an image, datetime of a time)' })),
  type: Type.Optional(Type.String({ description: 'mode field: suggested with the attribute (url, date)' })),
  text: Type.Optional(Type.String({ description: 'mode field: the element\'s text (normalised)' })),
  value: Type.Optional(Type.String({ description: 'mode field: what the suggested field reads in this row, before its type' })),
  rowsWithMatch: Type.Optional(Type.Integer({ description: 'mode field: the rows in which the selector finds an element' })),
  box: PickBox,
});

export const MappingPreviewAnswer = Type.Object({
  data: Type.Unknown({ description: 'what a run with the mapping would give as result.data, read from the live page now' }),
});

export const MappingPreviewBody = Type.Object({ extract: ExtractOption }, { additionalProperties: false });
