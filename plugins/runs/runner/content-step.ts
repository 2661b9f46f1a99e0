// `get_content`: the text of the first element matching `selector` becomes the action's output (so a `set`
// with an empty value keeps it). Decisions:
// - The text is the element's `innerText` (what a person reads: hidden parts, scripts and styles left out,
//   line breaks where the layout breaks), trimmed, exactly as `{$loop.text}` is; an element the page does not
//   render (no layout box) falls back to its `textContent`, as `innerText` itself does.
// - The selector forms are the ones `foreach` takes (CSS, XPath, `text=`). An element that is there answers at
//   once; a missing one is waited for as `wait_selector` waits (visible, `timeoutMs`, default 10000).
import { guard, timedOut } from './guard.js';
import { HELPERS } from './page-scripts.js';
import { evaluateWithin, type Step, type StepEnv, type StepResult } from './steps.js';
import { BACKSTOP_MS } from './web-steps.js';

/** args `{ selector }` → `{ text }` of the first match, or null when nothing matches. */
const CONTENT_OF = `${HELPERS}
const el = __all(args.selector)[0];
return el ? { text: (el.innerText ?? el.textContent ?? '').trim() } : null;`;

export async function runGetContent(step: Step, env: StepEnv): Promise<StepResult> {
  const selector = step.selector ?? '';
  const t = step.timeoutMs;
  const read = (what: string) => evaluateWithin(env, CONTENT_OF, { selector }, t, what) as Promise<{ text: string } | null>;
  // Until an element was seen, that is what the action waits for, whichever call the time ran out in.
  const visible = `selector "${selector}" to be visible`;
  let found = await read(visible);
  if (!found) {
    await guard(env.page.waitForSelector(selector, t), env.hooks.signal, t && t + BACKSTOP_MS, () => timedOut(visible, t));
    found = await read(`the text of selector "${selector}"`);
    if (!found) throw new Error(`no element matches "${selector}" any more`);
  }
  return { output: found.text, hasOutput: true };
}
