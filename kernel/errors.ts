/**
 * The one catalogue of errors. Each has a stable upper-case code, an HTTP status and a message
 * template whose `{name}` placeholders are filled from the params given when it is thrown.
 * Only kernel/http/error-handler.ts turns these into `{ error, details }` responses.
 */

export class TaskloomError extends Error {
  readonly code: string;
  readonly statusCode: number;
  /** True when trying again (another key, a later moment) may succeed. */
  readonly retryable: boolean;

  constructor(code: string, statusCode: number, details: string, options?: { cause?: unknown; retryable?: boolean }) {
    super(details, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TaskloomError';
    this.code = code;
    this.statusCode = statusCode;
    this.retryable = options?.retryable ?? false;
  }
}

/** A URL or address refused by the outbound rule (ALLOW_PRIVATE_NETWORKS). `reason` is plain words and never holds credentials. */
export class OutboundBlockedError extends Error {
  readonly reason: string;
  /** True when the host name did not resolve (rather than resolving to a refused address). */
  readonly unresolved: boolean;
  constructor(reason: string, options: { unresolved?: boolean } = {}) {
    super(reason);
    this.name = 'OutboundBlockedError';
    this.reason = reason;
    this.unresolved = options.unresolved ?? false;
  }
}

/** An outbound request failed for a reason other than the outbound rule. `reason` never holds credentials. */
export class OutboundRequestError extends Error {
  readonly reason: string;
  readonly timedOut: boolean;
  constructor(reason: string, options: { timedOut?: boolean; cause?: unknown } = {}) {
    super(reason, { cause: options.cause });
    this.name = 'OutboundRequestError';
    this.reason = reason;
    this.timedOut = options.timedOut ?? false;
  }
}

export interface ErrorDefinition {
  readonly code: string;
  readonly statusCode: number;
  readonly template: string;
  /** Builds the error; `params` fill the template, `details` replaces it when given. */
  (params?: Record<string, unknown>, options?: { cause?: unknown; retryable?: boolean; details?: string }): TaskloomError;
  /** True when `error` is an instance of this definition. */
  is(error: unknown): error is TaskloomError;
}

const catalogue = new Map<string, ErrorDefinition>();

export function defineError(code: string, statusCode: number, template: string): ErrorDefinition {
  if (!/^[A-Z][A-Z0-9_]*$/.test(code)) throw new Error(`error code ${code} must be upper-case words`);
  if (catalogue.has(code)) throw new Error(`error code ${code} is defined twice`);
  const make = ((params = {}, options = {}) => {
    const details = options.details ?? template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? ''));
    return new TaskloomError(code, statusCode, details, options);
  }) as ErrorDefinition;
  Object.defineProperties(make, {
    code: { value: code },
    statusCode: { value: statusCode },
    template: { value: template },
    is: { value: (error: unknown) => error instanceof TaskloomError && error.code === code },
  });
  catalogue.set(code, make);
  return make;
}

/** Every defined error, for the docs check and the OpenAPI document. */
export function errorCatalogue(): ErrorDefinition[] {
  return [...catalogue.values()];
}

export const Errors = {
  VALIDATION_ERROR: defineError('VALIDATION_ERROR', 400, '{message}'),
  NOT_FOUND: defineError('NOT_FOUND', 404, 'Route {method} {url} not found'),
  TASK_NOT_FOUND: defineError('TASK_NOT_FOUND', 404, 'Task {id} not found'),
  EXECUTION_NOT_FOUND: defineError('EXECUTION_NOT_FOUND', 404, 'Execution {id} not found'),
  CREDENTIAL_NOT_FOUND: defineError('CREDENTIAL_NOT_FOUND', 404, 'Credential {id} not found'),
  PROXY_NOT_FOUND: defineError('PROXY_NOT_FOUND', 404, 'Proxy {id} not found'),
  WEBHOOK_NOT_FOUND: defineError('WEBHOOK_NOT_FOUND', 404, 'Webhook endpoint {id} not found'),
  API_KEY_NOT_FOUND: defineError('API_KEY_NOT_FOUND', 404, 'API key {id} not found'),
  DELIVERY_NOT_FOUND: defineError('DELIVERY_NOT_FOUND', 404, 'Webhook delivery {id} not found'),
  RESULT_NOT_FOUND: defineError('RESULT_NOT_FOUND', 404, 'Execution {id} has no result {reason}'),
  BROWSER_STATE_NOT_FOUND: defineError('BROWSER_STATE_NOT_FOUND', 404, 'Browser state {name} not found: GET /api/browser-states lists the saved ones'),
  SETUP_REQUIRED: defineError('SETUP_REQUIRED', 401, 'No admin account exists yet: POST /api/auth/setup first'),
  UNAUTHORIZED: defineError('UNAUTHORIZED', 401, 'Missing or invalid credentials: {hint}'),
  FORBIDDEN: defineError('FORBIDDEN', 403, '{hint}'),
  INVALID_CREDENTIALS: defineError('INVALID_CREDENTIALS', 401, 'Email or password is wrong'),
  USER_NOT_FOUND: defineError('USER_NOT_FOUND', 404, 'User {id} not found'),
  EMAIL_TAKEN: defineError('EMAIL_TAKEN', 409, 'A user or pending invitation already has the email {email}'),
  LAST_ADMIN: defineError('LAST_ADMIN', 409, '{name} is the last admin: make another user admin first'),
  INVITATION_NOT_FOUND: defineError('INVITATION_NOT_FOUND', 404, 'No pending invitation matches: check the link, or ask an admin for a new one'),
  INVITATION_UNUSABLE: defineError('INVITATION_UNUSABLE', 410, 'This invitation {reason}: ask an admin for a new one'),
  ALREADY_INITIALIZED: defineError('ALREADY_INITIALIZED', 409, 'Setup is already done: log in instead'),
  EXECUTION_FINISHED: defineError('EXECUTION_FINISHED', 409, 'Execution {id} already finished ({status}): nothing to cancel'),
  EXECUTION_NOT_PAUSED: defineError('EXECUTION_NOT_PAUSED', 409, 'Execution {id} is not waiting for a person: {reason}'),
  HANDOFF_ENDED: defineError('HANDOFF_ENDED', 410, 'This handoff is over: its link was used or replaced, or the run was resumed, or its pause expired'),
  IMPORT_CONFLICT: defineError('IMPORT_CONFLICT', 409, 'Nothing imported: {count} task(s) of the bundle exist already ({ids}); send ?onConflict=skip to keep them or ?onConflict=replace to overwrite them'),
  IMPORT_UNMAPPED: defineError('IMPORT_UNMAPPED', 422, 'Nothing imported: {count} of {total} task(s) hold what taskloom cannot run as written | {list}'),
  REPAIR_NOT_PROPOSED: defineError('REPAIR_NOT_PROPOSED', 409, 'Repair {id} cannot be {action}: {reason}'),
  RATE_LIMITED: defineError('RATE_LIMITED', 429, 'Too many attempts: try again in {seconds} s'),
  QUEUE_FULL: defineError('QUEUE_FULL', 429, '{queued} runs are waiting for a slot (MAX_QUEUED_RUNS={limit}): try again in {seconds} s'),
  TASK_CHANGED: defineError('TASK_CHANGED', 412, 'Task {id} changed since it was read (If-Match {sent}); its current ETag is {current}: read it again, or send without If-Match to overwrite'),
  API_KEY_TOO_LONG: defineError('API_KEY_TOO_LONG', 400, 'apiKey is {length} characters long; the limit is 512'),
  API_KEY_TOO_WEAK: defineError('API_KEY_TOO_WEAK', 400, 'apiKey is too easy to guess: {reason}; send none to have a strong one generated'),
  HOST_NOT_ALLOWED: defineError('HOST_NOT_ALLOWED', 421, 'Host {host} is not a name this service answers to: add it to ALLOWED_HOSTS (comma-separated host names; * accepts any)'),
  PAYLOAD_TOO_LARGE: defineError('PAYLOAD_TOO_LARGE', 413, 'Request body is larger than {limit} bytes'),
  UNSUPPORTED_MEDIA_TYPE: defineError('UNSUPPORTED_MEDIA_TYPE', 415, 'Content-Type {type} is not accepted: send application/json'),
  INVALID_URL: defineError('INVALID_URL', 400, '{reason}'),
  INVALID_WEBHOOK_URL: defineError('INVALID_WEBHOOK_URL', 400, '{reason}'),
  INVALID_BASE_URL: defineError('INVALID_BASE_URL', 400, '{reason}'),
  INVALID_DATABASE_ID: defineError('INVALID_DATABASE_ID', 400, 'databaseId must be a number, got {value}'),
  INVALID_SCHEDULE: defineError('INVALID_SCHEDULE', 400, '{reason}'),
  NO_AI_PROVIDER: defineError('NO_AI_PROVIDER', 400, 'No AI provider key is configured: add one under /api/settings'),
  AI_FAILED: defineError('AI_FAILED', 500, '{reason}'),
  AI_PROVIDERS_FAILED: defineError('AI_PROVIDERS_FAILED', 502, 'Every AI provider failed: {reason}'),
  UPSTREAM_ERROR: defineError('UPSTREAM_ERROR', 502, '{reason}'),
  STORAGE_UNAVAILABLE: defineError('STORAGE_UNAVAILABLE', 503, 'Storage is unreachable: {reason}'),
  SHUTTING_DOWN: defineError('SHUTTING_DOWN', 503, 'The service is shutting down'),
  INTERNAL_ERROR: defineError('INTERNAL_ERROR', 500, 'Internal error (request {requestId}); see the server log'),
} as const;
