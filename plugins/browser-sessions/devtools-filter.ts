import { CHECKS, type CheckContext, type Params } from './devtools-checks.js';
import { DOMAIN_POLICY, FREE_FORM, HOST_WORDS, METHOD_POLICY, nameWords } from './devtools-policy.js';

/** The outcome for one client message: the JSON text to send the browser, or the error answer to send back. */
export type FilterOutcome = { forward: string } | { answer: string; method: string; reason: string };

const MAX_DEPTH = 32;
/** What a client may still send a session of the browser's own interface: let it go on and detach. */
const LEAVE_INTERNAL = new Set(['Runtime.runIfWaitingForDebugger', 'Target.detachFromTarget']);
const MAX_NESTING = 2;
// A server error in the JSON-RPC sense, as Chromium answers a method it refuses.
const REFUSED_CODE = -32000;

interface Message {
  id?: unknown;
  method: string;
  params: Params;
  sessionId?: unknown;
}

/**
 * Reads one client-to-browser DevTools message and applies devtools-policy.ts. What is forwarded is the
 * message as parsed here, serialized again, so Chromium reads exactly what was checked (no duplicate keys or
 * odd spellings read one way here and another there). Resolves; never rejects for a bad message.
 */
export async function filterMessage(text: string, context: CheckContext): Promise<FilterOutcome> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return refusal(undefined, '(unreadable)', 'the message is not JSON', -32700);
  }
  const result = await inspect(parsed, context, 0);
  if ('reason' in result) return refusal(parsed, result.method, result.reason);
  return { forward: JSON.stringify(result.message) };
}

type Inspected = { message: Message } | { method: string; reason: string };

async function inspect(parsed: unknown, context: CheckContext, nesting: number): Promise<Inspected> {
  if (!isObject(parsed) || typeof parsed.method !== 'string') return { method: '(none)', reason: 'a message is an object with a method' };
  const method = parsed.method;
  if (parsed.params !== undefined && !isObject(parsed.params)) return { method, reason: 'params must be an object' };
  const message = { ...parsed, method, params: (parsed.params ?? {}) as Params } as Message;
  const sessionOf = method === 'Target.sendMessageToTarget' ? message.params.sessionId : message.sessionId;
  if (typeof sessionOf === 'string' && context.internalSessions.has(sessionOf) && !LEAVE_INTERNAL.has(method)) {
    return { method, reason: 'the session is attached to a page of the browser\'s own interface, which a client may not drive' };
  }
  const domain = method.split('.')[0]!;
  // Own keys only: a method named `constructor` or `__proto__` is nobody's entry.
  const entry = Object.hasOwn(METHOD_POLICY, method) ? METHOD_POLICY[method] : Object.hasOwn(DOMAIN_POLICY, domain) ? DOMAIN_POLICY[domain] : undefined;
  if (entry === undefined) {
    const word = hostWord(message.params, 0);
    return word === undefined ? { message } : { method, reason: `its parameter ${word} may reach the host, and ${method} is not on the relay's list` };
  }
  switch (entry.verdict) {
    case 'allow':
      return { message };
    case 'refuse':
      return { method, reason: entry.reason };
    case 'nested':
      return nested(message, context, nesting);
    default: {
      const reason = await CHECKS[entry.verdict](message.params, context);
      return reason === undefined ? { message } : { method, reason };
    }
  }
}

/** Target.sendMessageToTarget: the message inside is judged like any other, and forwarded as parsed. */
async function nested(message: Message, context: CheckContext, nesting: number): Promise<Inspected> {
  const inner = message.params.message;
  if (typeof inner !== 'string') return { method: message.method, reason: 'message must be a string' };
  if (nesting >= MAX_NESTING) return { method: message.method, reason: 'messages nest too deep' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(inner);
  } catch {
    return { method: message.method, reason: 'the message inside is not JSON' };
  }
  const result = await inspect(parsed, context, nesting + 1);
  if ('reason' in result) return { method: `${message.method} > ${result.method}`, reason: result.reason };
  message.params.message = JSON.stringify(result.message);
  return { message };
}

/** The first parameter name (at any depth, outside free-form values) holding a host word. */
function hostWord(value: unknown, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return '(nested too deep to read)';
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = hostWord(item, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isObject(value)) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (FREE_FORM.has(key)) continue;
    if (nameWords(key).some((word) => HOST_WORDS.has(word))) return key;
    const found = hostWord(inner, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function refusal(parsed: unknown, method: string, reason: string, code = REFUSED_CODE): FilterOutcome {
  const { id, sessionId } = isObject(parsed) ? parsed : {};
  const answer = {
    id: typeof id === 'number' ? id : 0,
    error: { code, message: `taskloom's DevTools relay refused ${method}: ${reason}` },
    ...(typeof sessionId === 'string' ? { sessionId } : {}),
  };
  return { answer: JSON.stringify(answer), method, reason };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
