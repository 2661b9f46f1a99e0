import { Type, type Static, type TSchema } from 'typebox';
import { ACTION_TYPES, CAPTURE_TYPES, EXECUTION_OUTCOMES, EXECUTION_STATUSES, EXECUTION_TRIGGERS, LOG_LEVELS, MASK } from './record-values.js';
import { MAX_ACTIONS, MAX_VERSIONS, SCHEDULE_FREQUENCIES, TASK_MODES } from './record-values.js';

/**
 * The records every capability passes around, each one TypeBox schema with its type derived from it: the API
 * validates and answers with them (request bodies are derived from them), the task bundle carries them, and the
 * dashboard and the CLI import their types. No behaviour lives here.
 * Timestamps are ISO 8601 strings unless the name ends in `Ms` (epoch or duration milliseconds).
 */

export * from './record-values.js';

/**
 * The keyword naming a record as a shared component of the OpenAPI document (kernel/http/named-schema.ts). An `x-`
 * keyword, which validation and serialisation ignore; set when the record is made, so that copies made from it
 * (`Type.Optional`) carry it too.
 */
export const SCHEMA_NAME = 'x-schema-name';

function named<T extends TSchema>(name: string, schema: T): T {
  (schema as Record<string, unknown>)[SCHEMA_NAME] = name;
  return schema;
}

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/**
 * One of `values` when written through the API, typed as any string: a store may hold a value this version does not
 * know (written by an older or newer service), and readers must expect it.
 */
const OneOf = (values: readonly string[]) => Type.Unsafe<string>(Type.Enum([...values]));
const Id = Type.String({ minLength: 1, maxLength: 200 });
const DateTime = Type.String({ format: 'date-time', maxLength: 64, description: 'ISO 8601' });

/** One browser action of a task (decisions.md, "Actions"). */
export const Action = named('Action', Type.Object({
  id: Type.Optional(Type.String({ maxLength: 200 })),
  type: OneOf(ACTION_TYPES),
  selector: Type.Optional(Type.String({ maxLength: 4000 })),
  value: Type.Optional(Type.String({ maxLength: 200_000 })),
  key: Type.Optional(Type.String({ maxLength: 100 })),
  target: Type.Optional(Type.String({ maxLength: 4000, description: 'drag_and_drop: the element to drop onto' })),
  frame: Type.Optional(Type.String({ maxLength: 4000, description: 'iframe selectors, outermost first, separated by >>' })),
  varName: Type.Optional(Type.String({ maxLength: 200 })),
  timeoutMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 3_600_000 })),
  disabled: Type.Optional(Type.Boolean()),
}, { additionalProperties: false }));
export type Action = Static<typeof Action>;
export type ActionType = (typeof ACTION_TYPES)[number];

/** A recurring schedule attached to a task. The `lastRun*` and `nextRun` fields are maintained by the scheduler. */
export const Schedule = named('Schedule', Type.Object({
  enabled: Type.Boolean(),
  frequency: Type.Optional(Type.Enum([...SCHEDULE_FREQUENCIES], { description: 'may be omitted when cron is given' })),
  intervalMinutes: Type.Optional(Type.Integer({ minimum: 1, description: 'interval: minutes between runs (up to 1440)' })),
  hour: Type.Optional(Type.Integer({ minimum: 0, maximum: 23, description: 'default 0; daily, weekly, monthly' })),
  minute: Type.Optional(Type.Integer({ minimum: 0, maximum: 59, description: 'default 0; hourly, daily, weekly, monthly' })),
  daysOfWeek: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 6 }), { maxItems: 7, description: 'weekly: 0 is Sunday, 6 Saturday' })),
  dayOfMonth: Type.Optional(Type.Integer({ minimum: 1, maximum: 31, description: 'monthly; months without that day are skipped' })),
  cron: Type.Optional(Type.String({ maxLength: 200, description: 'five fields; wins over the frequency fields' })),
  timezone: Type.Optional(Type.String({ maxLength: 100, description: 'IANA name; default: the server time zone' })),
  lastRun: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  lastRunStatus: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  lastRunDurationMs: Type.Optional(Nullable(Type.Number())),
  nextRun: Type.Optional(Nullable(Type.Number({ description: 'epoch ms of the next fire' }))),
}, { additionalProperties: false }));
export type Schedule = Static<typeof Schedule>;

export const Viewport = Type.Object({
  width: Type.Integer({ minimum: 1, maximum: 10_000 }),
  height: Type.Integer({ minimum: 1, maximum: 10_000 }),
}, { additionalProperties: false });

/** Where a task's extracted rows go: a table reached with a stored credential. */
export const Output = Type.Object({
  credentialId: Type.String({ minLength: 1, maxLength: 200 }),
  tableId: Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Integer({ minimum: 0 })]),
  onError: Type.Optional(Type.Enum(['ignore', 'fail'])),
}, { additionalProperties: false });
export type Output = Static<typeof Output>;

/** The statuses a task may ask to retry (`retries.on`). */
export const RETRY_ON = ['interrupted', 'error', 'timeout'] as const;
/** Run the task again when a run ends in one of `on` (default: only `interrupted`, its worker died), `max` times. */
export const Retries = Type.Object({
  max: Type.Integer({ minimum: 0, maximum: 10, description: 'runs again at most this many times' }),
  delayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 3_600_000, description: 'wait before each retry; default 0' })),
  on: Type.Optional(Type.Array(Type.Enum([...RETRY_ON]), { minItems: 1, maxItems: 3, uniqueItems: true, description: "default ['interrupted']" })),
}, { additionalProperties: false });
export type Retries = Static<typeof Retries>;

// The task's fields in two groups. Serialisation writes the required fields first, then the optional ones, each
// in the order given here: the order the answers have always had.
const taskRequired = {
  id: Id,
  name: Type.String({ minLength: 1, maxLength: 200 }),
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'absolute http(s) URL; may hold {$name} placeholders' }),
  mode: OneOf(TASK_MODES),
  actions: Type.Array(Action, { maxItems: MAX_ACTIONS }),
  createdAt: DateTime,
  updatedAt: DateTime,
};
const taskOptional = {
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  variables: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  schedule: Type.Optional(Schedule),
  extractionScript: Type.Optional(Type.String({ maxLength: 200_000 })),
  rotateProxies: Type.Optional(Type.Boolean()),
  proxyId: Type.Optional(Type.String({ maxLength: 200 })),
  viewport: Type.Optional(Viewport),
  userAgent: Type.Optional(Type.String({ maxLength: 1000 })),
  timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400_000, description: 'whole run; default 120000' })),
  output: Type.Optional(Output),
  record: Type.Optional(Type.Boolean({ description: 'record a video of the run' })),
  retries: Type.Optional(Retries),
  screenshotOnFailure: Type.Optional(Type.Boolean({ description: 'a screenshot of the page when the run fails; default true' })),
  trace: Type.Optional(Type.Boolean({ description: 'record a Playwright trace of every run (Playwright engine only)' })),
  healing: Type.Optional(Type.Enum(['off', 'propose', 'apply'], { description: 'a selector matching nothing: off (fail), propose (default) or apply' })),
  healingThreshold: Type.Optional(Type.Number({ minimum: 0.5, maximum: 1, description: 'the least score a repair needs; default 0.55' })),
  healingCheck: Type.Optional(Type.Boolean({ description: 'check before each action that its element still matches the fingerprint' })),
  browserState: Type.Optional(Type.String({ maxLength: 64, description: 'runs start from this named browser state (README "Browser states")' })),
  saveBrowserState: Type.Optional(Type.String({ maxLength: 64, description: 'a run that succeeded saves its browser state under this name' })),
};
/** Unknown top-level options are kept as they were sent (the bundle of a newer service), up to this many fields. */
const taskOpen = { additionalProperties: true, maxProperties: 64 };

/** A task without its history (`GET /api/tasks`, version snapshots). */
export const TaskSummary = named('TaskSummary', Type.Object({ ...taskRequired, ...taskOptional }, taskOpen));

/** A snapshot of a task taken before it was overwritten or patched. */
export const TaskVersion = named('TaskVersion', Type.Object({
  id: Id,
  savedAt: DateTime,
  // Kept and answered as stored: a snapshot is the task as it was then, checked by the rules of then.
  snapshot: Type.Unsafe<TaskSnapshot>(Type.Record(Type.String(), Type.Unknown(), { description: 'the task as it was, without versions' })),
}, { additionalProperties: false }));

/** A task as stored, answered and exported, with its history (newest first) and schedule. */
export const Task = named('Task', Type.Object({
  ...taskRequired,
  versions: Type.Optional(Type.Array(TaskVersion, { maxItems: MAX_VERSIONS, description: 'newest first' })),
  ...taskOptional,
}, taskOpen));

/** A task as stored; unknown top-level options are kept as they were sent. */
export type TaskRecord = Static<typeof Task> & { [option: string]: unknown };
/** A task without its history. */
export type TaskSnapshot = Static<typeof TaskSummary> & { [option: string]: unknown };
export type TaskVersion = Static<typeof TaskVersion>;
/** A task being written (the dashboard's editor): the server's fields are not there yet. */
export type TaskDraft = Omit<Static<typeof Task>, 'id' | 'createdAt' | 'updatedAt'>
  & Partial<Pick<Static<typeof Task>, 'id' | 'createdAt' | 'updatedAt'>> & { [option: string]: unknown };

const taskField = Task.properties;
/** An entry of the light task list (`GET /api/tasks/list`). */
export const TaskListEntry = Type.Object({
  id: taskField.id,
  name: taskField.name,
  description: taskField.description,
  url: taskField.url,
  mode: taskField.mode,
  updatedAt: taskField.updatedAt,
  createdAt: taskField.createdAt,
  actionCount: Type.Integer(),
  schedule: taskField.schedule,
});
export type TaskListEntry = Static<typeof TaskListEntry>;

export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
export type ExecutionTrigger = (typeof EXECUTION_TRIGGERS)[number];
export type ExecutionOutcome = (typeof EXECUTION_OUTCOMES)[number];

export const LogLine = named('LogLine', Type.Object({
  at: Type.String(),
  level: Type.Enum([...LOG_LEVELS]),
  message: Type.String(),
  actionIndex: Type.Optional(Type.Integer({ description: 'counts from 0' })),
}, { additionalProperties: true }));
export type ExecutionLogLine = Static<typeof LogLine>;

/**
 * What a run produced (decisions.md "Runs and executions"), as the run answer, the completion webhook and the
 * stored execution all show it. Open, since `data` is whatever the task extracted.
 */
export const RunResult = named('RunResult', Type.Object({
  data: Type.Optional(Type.Unknown()),
  finalUrl: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  captures: Type.Optional(Type.Array(Type.String(), { description: 'capture names' })),
  error: Type.Optional(Type.Object({
    message: Type.String(),
    actionIndex: Type.Optional(Type.Integer()),
    screenshot: Type.Optional(Type.String({ description: 'the capture taken when the run failed (also in captures)' })),
  }, { additionalProperties: true })),
  trace: Type.Optional(Type.String({ description: 'the Playwright trace of the run (`<executionId>_<n>.zip`), when one was asked' })),
}, { additionalProperties: true }));
export type ExecutionResult = Static<typeof RunResult> & { [extra: string]: unknown };

/**
 * A result beyond RESULT_INLINE_MAX_BYTES, kept as a blob (`name`) of the blob store instead of in the record, whose
 * `result` then holds its small fields with `data: null`; `GET /api/executions/{id}/result` serves it whole.
 */
export const ResultStoredApart = named('ResultStoredApart', Type.Object({
  bytes: Type.Integer({ minimum: 0, description: 'size of the whole result as JSON' }),
  name: Type.String({ description: 'the blob holding it (internal name)' }),
  url: Type.String({ description: 'where to read it: /api/executions/{id}/result' }),
}));
export type ResultStoredApart = Static<typeof ResultStoredApart>;

/** One run of a task, with its logs and result; fields added later by the runner pass through. */
export const Execution = named('Execution', Type.Object({
  executionId: Type.String(),
  taskId: Type.String(),
  taskName: Type.String(),
  status: Type.Enum([...EXECUTION_STATUSES]),
  trigger: Type.Enum([...EXECUTION_TRIGGERS]),
  startedAt: Type.String({ description: 'ISO 8601' }),
  durationMs: Type.Number(),
  // How the run ended, finer than its status (absent while queued or running); older records answer their status's.
  outcome: Type.Optional(Type.Unsafe<ExecutionOutcome>(Type.Enum([...EXECUTION_OUTCOMES], { description: 'how the run ended (layers/outcomes)' }))),
  finishedAt: Type.Optional(Type.String({ description: 'ISO 8601; absent while queued or running' })),
  changed: Type.Optional(Type.Boolean({ description: "the data or a compared screenshot differs from the task's previous successful run (task option compare); absent: not compared" })),
  awaitingHuman: Type.Optional(Type.Object({
    message: Type.String(),
    reason: Type.Enum(['action', 'anti_bot', 'second_factor']),
    expiresAt: Type.String({ description: 'ISO 8601: the run ends stopped then unless resumed' }),
  }, { description: 'while the run waits for a person (outcome awaiting_human): README "A person in the loop"' })),
  attempt: Type.Optional(Type.Integer({ minimum: 2, description: "which try this is, once the task's `retries` ran it again" })),
  result: RunResult,
  resultStoredApart: Type.Optional(ResultStoredApart),
  logs: Type.Array(LogLine),
  variables: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'the variables the run was given (over the task\'s): what a re-run sends again' })),
}, { additionalProperties: true }));

/** What a run needs to be enqueued again by any instance, and how often it was. Internal (never answered). */
export interface ExecutionQueueing {
  /** The run's job payload (trigger, variables, webhook): what the queue carries. */
  job: Record<string, unknown>;
  /** The task's `retries` when the run was queued. */
  retries?: Retries;
  /** Times it went back to the queue (any reason): its job id is `<executionId>-<requeues>` past the first. */
  requeues?: number;
  /** Times it ran again through another proxy after a bot wall (the task's `antiBot.proxyRetries`). */
  proxyRetries?: number;
  /** Times a browser grid turned it away in a row, and since when (ISO). */
  busy?: number;
  busySince?: string;
  /** Not to be taken before this (ISO): a retry's or a busy grid's wait. */
  notBefore?: string;
}

/** One run of a task as stored. */
export type ExecutionRecord = Static<typeof Execution> & {
  result: ExecutionResult;
  /**
   * The instance (`INSTANCE_ID`) that queued and runs it, so recovery interrupts only the runs of instances
   * that stopped. Internal: not part of any API answer. Absent on records written before instances were named.
   */
  instanceId?: string;
  /**
   * The claim of the worker running it (set when it starts): that worker's later writes apply only while the
   * record still holds it, so an instance cut off from the others cannot overwrite an end they recorded. Internal.
   */
  runToken?: string;
  /** How the run goes back to the queue (retries, a busy browser grid, the reconciler). Internal. */
  queueing?: ExecutionQueueing;
  [extra: string]: unknown;
};

const EXECUTION_SUMMARY_FIELDS = ['executionId', 'taskId', 'taskName', 'status', 'trigger', 'startedAt', 'durationMs', 'outcome', 'changed'] as const;
/** The list-view subset of an execution: no logs, no result payload (serialisation drops everything else). */
export const ExecutionSummary = named('ExecutionSummary', Type.Object(Type.Pick(Execution, EXECUTION_SUMMARY_FIELDS).properties, { additionalProperties: false }));
export type ExecutionSummary = Static<typeof ExecutionSummary>;

/** What a run answers once it ended; also the body of the completion webhook. */
export const RunAnswer = named('RunAnswer', Type.Object({
  executionId: Execution.properties.executionId,
  taskId: Execution.properties.taskId,
  // The status the execution ended with (typed as one, documented as the five it can be).
  status: Type.Unsafe<ExecutionStatus>(Type.String({ description: 'success | error | timeout | cancelled | interrupted' })),
  durationMs: Execution.properties.durationMs,
  result: RunResult,
  resultStoredApart: Type.Optional(ResultStoredApart),
}));
export type RunAnswer = Static<typeof RunAnswer> & { result: ExecutionResult };

/** Where "run to here" (`POST /api/tasks/run-to-here`) stopped: the page, the variables, the last output, the log. */
export const RunToHereAnswer = named('RunToHereAnswer', Type.Object({
  status: Type.Unsafe<'success' | 'error' | 'timeout' | 'cancelled'>(Type.Enum(['success', 'error', 'timeout', 'cancelled'])),
  actionIndex: Type.Integer({ description: 'the last action asked for (0-based)' }),
  durationMs: Type.Number(),
  screenshot: Type.Optional(Type.String({ description: 'the viewport at the end, data:image/png;base64,...' })),
  finalUrl: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  variables: Type.Record(Type.String(), Type.Unknown(), { description: 'the variables at the end (after set actions)' }),
  output: Type.Optional(Type.Unknown({ description: 'the latest action output (a javascript action\'s value)' })),
  logs: Type.Array(LogLine),
  error: Type.Optional(Type.Object({ message: Type.String(), actionIndex: Type.Optional(Type.Integer()) })),
}));
export type RunToHereAnswer = Static<typeof RunToHereAnswer>;

/** A capture file of a run (screenshot or recording) as every endpoint describes it. */
export const Capture = named('Capture', Type.Object({
  name: Type.String({ description: '<executionId>_<n>.<png|jpg|webm>, or <executionId>_<n>.download.<file name> for a download; the key for serving and deleting' }),
  url: Type.String({ description: '/api/data/captures/<name>; needs authentication' }),
  size: Type.Integer({ description: 'bytes' }),
  modified: Type.String({ description: 'ISO 8601' }),
  type: Type.Enum([...CAPTURE_TYPES]),
  runId: Type.String({ description: 'the execution the capture belongs to' }),
  fileName: Type.Optional(Type.String({ description: 'a download: the file name the site suggested' })),
  contentType: Type.Optional(Type.String({ description: 'a download: its media type (from its name)' })),
  taskId: Type.Optional(Type.String({ description: "the run's task, in lists (absent once the run is deleted)" })),
  taskName: Type.Optional(Type.String({ description: "the run's task name, in lists (absent once the run is deleted)" })),
}));
export type Capture = Static<typeof Capture>;
export type CaptureType = (typeof CAPTURE_TYPES)[number];

/**
 * A user proxy (`px_` + random id). Stored with its password in clear (the runner hands it to the browser);
 * answered with the password, when set, as the mask. The built-in `host` entry (no proxy) is never stored.
 */
export const Proxy = named('Proxy', Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200 }),
  server: Type.String({ minLength: 1, maxLength: 2048, description: 'http://, https:// or socks5:// host:port (credentials in it move to username and password)' }),
  username: Type.Optional(Type.String({ maxLength: 500 })),
  password: Type.Optional(Type.String({ maxLength: 1000, description: `answered as ${MASK}; sent back as ${MASK}, it keeps the stored password` })),
  label: Type.Optional(Type.String({ maxLength: 200 })),
  isRotatingPool: Type.Optional(Type.Boolean()),
  estimatedPoolSize: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'informational: how many addresses the gateway rotates through' })),
}));
export type ProxyRecord = Static<typeof Proxy>;

/** An output-provider credential: `config.token` is the secret (sealed at rest by the kernel). */
export const CredentialRecord = Type.Object({
  id: Id,
  name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  provider: Type.String({ minLength: 1, maxLength: 100, description: 'an output provider id, e.g. tablestore' }),
  config: Type.Object({
    baseUrl: Type.String({ minLength: 1, maxLength: 2048, description: 'http(s) URL of the product; SSRF-checked' }),
    token: Type.String({ minLength: 1, maxLength: 4096, description: `answered as ${MASK}; sent back as ${MASK}, it keeps the stored token` }),
  }, { additionalProperties: false }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
/** As stored: `config` is the output provider's, typed open (the API writes `baseUrl` and `token`). */
export type CredentialRecord = Omit<Static<typeof CredentialRecord>, 'config'> & { config: Record<string, unknown> };

/** A credential as answered: serialisation keeps only these fields and always writes the mask for the token. */
export const Credential = named('Credential', Type.Object({
  ...CredentialRecord.properties,
  config: Type.Object({ baseUrl: CredentialRecord.properties.config.properties.baseUrl, token: Type.Literal(MASK) }),
}));
export type Credential = Static<typeof Credential>;

/**
 * What a caller may do, each route declaring the one it needs: `read` (look), `run` (start and stop runs), `write`
 * (change tasks, schedules and the like), `admin` (users, keys, settings). An API key holds a set of them.
 */
export const Scope = Type.Union([Type.Literal('read'), Type.Literal('run'), Type.Literal('write'), Type.Literal('admin')]);
export type Scope = Static<typeof Scope>;

/** A user's role: `admin` (every scope), `editor` (read, run, write), `viewer` (read). */
export const Role = Type.Union([Type.Literal('admin'), Type.Literal('editor'), Type.Literal('viewer')]);
export type Role = Static<typeof Role>;

/**
 * A named API key as listed: never the key itself (shown once, at creation; only its salted hash is kept).
 * `taskIds` limits it to those tasks and their executions (null: any task); a revoked or expired key is refused.
 */
export const ApiKey = Type.Object({
  id: Id,
  name: Type.String({ minLength: 1, maxLength: 100 }),
  scopes: Type.Array(Scope, { minItems: 1, uniqueItems: true }),
  taskIds: Type.Union([Type.Array(Id, { minItems: 1, maxItems: 100 }), Type.Null()]),
  /** ISO dates; `lastUsedAt` is written at most once a minute per key. */
  expiresAt: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  lastUsedAt: Type.Union([Type.String(), Type.Null()]),
  revokedAt: Type.Union([Type.String(), Type.Null()]),
  /** The key's last 4 characters, masked. */
  preview: Type.String(),
});
export type ApiKey = Static<typeof ApiKey>;

/** A dashboard account. `passwordHash` never leaves the auth and storage layers. */
export const UserRecord = Type.Object({
  id: Id,
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Type.String({ format: 'email', maxLength: 320 }),
  passwordHash: Type.String(),
  createdAt: Type.String(),
  /** Absent on the spec's first admin (and on accounts made before roles): it counts as `admin`. */
  role: Type.Optional(Role),
  /** When the user last logged in (ISO), absent before their first login. */
  lastLoginAt: Type.Optional(Type.String()),
});
export type UserRecord = Static<typeof UserRecord>;

/** A user as answered (`role` beyond the spec's three fields, so the dashboard hides what the user may not do). */
export const User = Type.Object({
  id: Type.Optional(UserRecord.properties.id),
  ...Type.Pick(UserRecord, ['name', 'email', 'role']).properties,
});
export type User = Static<typeof User>;

/** A server-side login session. `id` is a hash of the cookie token, never the token itself. */
export const SessionRecord = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  createdAt: Type.String(),
  expiresAtMs: Type.Number({ description: 'epoch milliseconds after which the session is void' }),
});
export type SessionRecord = Static<typeof SessionRecord>;

/** A browser state's name (README "Browser states"): letters, digits, `.`, `_` and `-`, as a URL path segment takes it. */
export const BrowserStateName = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' });

/** What may be shown of a named browser state: never a cookie value or a stored item. */
export const BrowserStateSummary = named('BrowserStateSummary', Type.Object({
  name: BrowserStateName,
  origins: Type.Array(Type.String(), { description: 'the sites it holds cookies or local storage for' }),
  cookieCount: Type.Integer({ minimum: 0 }),
  sizeBytes: Type.Integer({ minimum: 0, description: 'of the state as JSON, before sealing' }),
  source: Type.Optional(Type.String({ description: 'where it was saved from: `session:<id>`, `studio:<id>` or `run:<executionId>`' })),
  createdAt: DateTime,
  updatedAt: DateTime,
}, { additionalProperties: false }));
export type BrowserStateSummary = Static<typeof BrowserStateSummary>;

/** A named browser state as stored: the summary in the clear, keyed by name, the state itself sealed. */
export const BrowserStateRecord = Type.Object({
  id: BrowserStateName,
  ...Type.Omit(BrowserStateSummary, ['name']).properties,
  sealed: Type.String({ description: 'the cookies and local storage, sealed (enc:v1:...)' }),
}, { additionalProperties: false });
export type BrowserStateRecord = Static<typeof BrowserStateRecord>;
