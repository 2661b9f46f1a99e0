import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import { withOutcome } from '../outcomes/outcome-of.js';

/** Variable names that hold a secret (a password typed in a recorded login, a token, a key): never answered. */
const SECRET_NAME = /pass|pwd|secret|token|key|otp|pin|cred|auth|session|cookie/i;
export const MASKED_VARIABLE = '****';

/** The run's variables as answers show them: a value under a secret-looking name is masked. */
function shownVariables(variables: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, SECRET_NAME.test(name) ? MASKED_VARIABLE : value]));
}

/**
 * The instance that owns a run, its worker's claim and its queueing (which holds the run's variables) are internal
 * (recovery, fencing, retries): what leaves the service omits them, and masks the secret-looking variables. A
 * record older than outcomes answers its status's (layers/outcomes/outcome-of.ts).
 */
export function withoutOwner(record: ExecutionRecord): ExecutionRecord {
  const { instanceId: _owner, runToken: _claim, queueing: _queueing, ...rest } = withOutcome(record);
  const variables = rest.variables;
  if (variables && typeof variables === 'object' && !Array.isArray(variables)) rest.variables = shownVariables(variables as Record<string, unknown>);
  return rest;
}
