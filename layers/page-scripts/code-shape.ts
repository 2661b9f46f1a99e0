// The shape of user code (javascript, if, the extraction script), judged in the service by parsing it with acorn,
// never by running it: user code runs only in the page. Decisions:
// - A lone expression is code that parses as one expression, optionally followed by one `;` and nothing else but
//   whitespace and comments: `document.title`, `document.title;`, `await fetch(u).then((r) => r.status)`,
//   `{ a: 1 }` (an object, not a block), `// note` lines around it. It runs as `return (<expression>);`.
// - Anything else is a function body and runs as written: `return x`, `const a = 1; return a`, and also `a; b`
//   (two statements: its value is undefined, as any body's without `return`; write `return b` or `(a, b)`).
// - Code that does not parse either way runs as written: the page reports its syntax error.
import { parse, parseExpressionAt, type Node, type Options } from 'acorn';

// preserveParens: else the node of `(a)` is `a`, and its end falls short of the closing parenthesis.
const OPTIONS: Options = { ecmaVersion: 'latest', allowAwaitOutsideFunction: true, allowReturnOutsideFunction: true, preserveParens: true };

/** The end of the one expression `code` consists of, or -1 when it is something else. */
export function loneExpressionEnd(code: string): number {
  let end: number;
  try {
    end = parseExpressionAt(code, 0, OPTIONS).end;
  } catch {
    return -1;
  }
  try {
    const tail = parse(code.slice(end), OPTIONS).body;
    return tail.length === 0 || (tail.length === 1 && tail[0]!.type === 'EmptyStatement') ? end : -1;
  } catch {
    return -1;
  }
}

/** `code` as a function body: a lone expression gains its `return`, a body is left as it is. */
export function asFunctionBody(code: string): string {
  const end = loneExpressionEnd(code);
  return end < 0 ? code : `return (\n${code.slice(0, end)}\n);`;
}

/** True when `node` or a node inside it (not inside a nested function) is a `return` statement. */
function returns(node: Node): boolean {
  if (node.type === 'ReturnStatement') return true;
  if (/Function/.test(node.type) || node.type === 'ClassBody') return false;
  for (const value of Object.values(node)) {
    const children = Array.isArray(value) ? value : [value];
    for (const child of children) {
      if (child && typeof child === 'object' && typeof (child as Node).type === 'string' && returns(child as Node)) return true;
    }
  }
  return false;
}

/**
 * Code written for `eval` (whose value is its last expression statement's) as a function body with the same
 * value: `a; b` becomes `a; return b`. Code that returns already, or does not end in an expression, is left as
 * it is (a lone expression is left too: asFunctionBody handles it). Undefined when it does not parse.
 */
export function evalAsBody(code: string): string | undefined {
  if (loneExpressionEnd(code) >= 0) return code;
  let program;
  try {
    program = parse(code, OPTIONS);
  } catch {
    return undefined;
  }
  const last = program.body[program.body.length - 1];
  if (!last || last.type !== 'ExpressionStatement' || program.body.some(returns)) return code;
  return `${code.slice(0, last.start)}return ${code.slice(last.start)}`;
}
