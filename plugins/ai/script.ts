import { parse, type Node } from 'acorn';
import type { Verdict } from './chain.js';
import { stripFences } from './answer.js';

/** Longest script taken; an answer past it is a model rambling, not an extraction function. */
export const MAX_SCRIPT_CHARS = 50_000;

export const SCRIPT_SYSTEM_PROMPT = [
  'You write JavaScript for a browser automation tool. The code runs inside the web page (document and window are',
  'available) as the body of an async function; its return value becomes the extracted data.',
  'Answer with only that function body: no function declaration around it, no explanation, no Markdown fences.',
  'It must return the data the user describes: an array of plain objects for a list of items (one object per item,',
  'short camelCase keys), otherwise a plain object or a string. Return only JSON-serialisable values.',
  'Read the page with document.querySelector and querySelectorAll; trim text; use null for a missing value rather',
  'than throwing. Do not navigate, submit forms or load other pages.',
].join('\n');

export function scriptUserPrompt(description: string): string {
  return `Data to extract: ${description.trim()}`;
}

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** True when `node` holds a `return` of its own, not one inside a nested function (a `.map(x => ...)`). */
function returnsSomething(node: unknown): boolean {
  if (typeof node !== 'object' || node === null) return false;
  if (Array.isArray(node)) return node.some(returnsSomething);
  const type = (node as { type?: unknown }).type;
  if (type === 'ReturnStatement') return true;
  if (typeof type === 'string' && FUNCTIONS.has(type)) return false;
  return Object.values(node).some((value) => typeof value === 'object' && returnsSomething(value));
}

const parseBody = (code: string) =>
  parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true });

/** A lone function (`async () => { ... }`, `async function f() { ... }`) answered in place of its body: the body. */
function loneFunctionBody(code: string, program: { body: Node[] }): string | undefined {
  if (program.body.length !== 1) return undefined;
  const statement = program.body[0] as Node & { expression?: Node; body?: Node };
  const fn = statement.type === 'ExpressionStatement' ? statement.expression : statement;
  const body = (fn as (Node & { body?: Node }) | undefined)?.body;
  if (!fn || !FUNCTIONS.has(fn.type) || body?.type !== 'BlockStatement') return undefined;
  return code.slice(body.start + 1, body.end - 1).trim();
}

/**
 * The accept check of generate-script: the answer, fences stripped, must parse as the body of an async
 * function and return something. It is parsed (acorn), never run.
 */
export function acceptScript(answer: string): Verdict<string> {
  let code = stripFences(answer);
  if (code === '') return { ok: false, reason: 'the answer is empty' };
  if (code.length > MAX_SCRIPT_CHARS) return { ok: false, reason: `the script is longer than ${MAX_SCRIPT_CHARS} characters` };
  let program: ReturnType<typeof parseBody>;
  try {
    program = parseBody(code);
  } catch (error) {
    return { ok: false, reason: `not a JavaScript function body: ${(error as Error).message}` };
  }
  const inner = loneFunctionBody(code, program);
  if (inner !== undefined) {
    code = inner;
    program = parseBody(code);
  }
  if (!returnsSomething(program.body)) return { ok: false, reason: 'the script returns nothing' };
  return { ok: true, value: code };
}
