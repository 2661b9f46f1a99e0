// `{$name}` placeholders in an action's selector, value and key, and in code. Decisions:
// - Names are letters, digits, `_`, `-` and `.`; `{$user.name}` walks into object variables (own keys only,
//   array items by number), after first trying a variable literally named `user.name`.
// - Built-ins: `{$now}` is the current time (ISO 8601, taken once per action); inside a `foreach`,
//   `{$loop.index}` (0-based), `{$loop.number}` (1-based), `{$loop.count}`, `{$loop.text}` (the element's
//   trimmed innerText), `{$loop.selector}` (a CSS path to the element) and `{$loop.parent.*}` (the
//   enclosing loop). Built-ins shadow task variables of the same name; the innermost loop shadows outer ones.
// - Strings go in as they are; other values (numbers, booleans, null, objects) JSON-encoded.
// - An unknown name (or one whose value is undefined) stays in the text as written; the caller logs a warn.
// - Code (javascript, if, extraction) is filled the same way, as raw text: the value goes into the source
//   as is, unquoted and unescaped (`return '{$who}'` returns the name), as in the product taskloom replaces.
//   Code that must be safe whatever a value holds reads `args.vars` and `args.loop` instead.

/** A loop's variables, as `{$loop.*}` and `args.loop` see them. */
export interface LoopScope {
  index: number;
  number: number;
  count: number;
  text: string;
  selector: string;
  parent: LoopScope | null;
}

export interface TemplateScope {
  variables: Record<string, unknown>;
  loop: LoopScope | null;
  now: Date;
}

export interface Filled<T> {
  value: T;
  /** Placeholder names that matched nothing, each once. */
  unknown: string[];
}

const PLACEHOLDER = /\{\$([A-Za-z0-9_][\w.-]*)\}/g;
const WHOLE = /^\{\$([A-Za-z0-9_][\w.-]*)\}$/;

/** Fills every placeholder of `template`. */
export function fillTemplate(template: string, scope: TemplateScope): Filled<string> {
  const unknown = new Set<string>();
  const value = template.replace(PLACEHOLDER, (placeholder, name: string) => {
    const found = lookup(name, scope);
    if (found === undefined) {
      unknown.add(name);
      return placeholder;
    }
    return typeof found === 'string' ? found : JSON.stringify(found);
  });
  return { value, unknown: [...unknown] };
}

/**
 * Like fillTemplate, except that a template that is exactly one known placeholder keeps the value's
 * type (`set` copies an object or a number as it is, not as text).
 */
export function fillValue(template: string, scope: TemplateScope): Filled<unknown> {
  const whole = WHOLE.exec(template);
  if (whole) {
    const found = lookup(whole[1], scope);
    if (found !== undefined) return { value: found, unknown: [] };
  }
  return fillTemplate(template, scope);
}

/** The value a placeholder name stands for, or undefined when there is none. */
export function lookup(name: string, scope: TemplateScope): unknown {
  if (name === 'now') return scope.now.toISOString();
  const [head, ...rest] = name.split('.');
  if (head === 'loop' && scope.loop) return walk(scope.loop, rest);
  if (Object.hasOwn(scope.variables, name)) return scope.variables[name];
  if (!Object.hasOwn(scope.variables, head)) return undefined;
  return walk(scope.variables[head], rest);
}

function walk(start: unknown, path: string[]): unknown {
  let current = start;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
