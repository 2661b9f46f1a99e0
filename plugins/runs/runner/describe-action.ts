// The text of the info line logged as an action starts: `action 3 (click): #submit` for index 2. Typed text,
// `set` values and a URL's query string or credentials are never logged (they may hold secrets); code is
// logged as written (before its placeholders are filled) and shortened.
import { actionLabel } from '../../../layers/action-label/action-label.js';
import type { Step } from './steps.js';

const MAX = 120;

export function describeAction(index: number, step: Step, varName?: string): string {
  const detail = `${detailOf(step, varName)}${step.frame ? ` in frame ${step.frame}` : ''}`.replace(/\s+/g, ' ').trim();
  const short = detail.length > MAX ? `${detail.slice(0, MAX - 1)}…` : detail;
  return `${actionLabel(index, step.type)}${short ? `: ${short}` : ''}`;
}

function detailOf(step: Step, varName: string | undefined): string {
  const selector = step.selector ?? '';
  switch (step.type) {
    case 'navigate': return withoutSecrets(step.value ?? '');
    case 'type': return `${selector} (${[...(step.value ?? '')].length} characters)`;
    case 'press': return selector ? `${step.key} on ${selector}` : step.key ?? '';
    case 'wait': return `${step.value} ms`;
    case 'scroll': return selector || `${step.value?.trim() || 'one viewport'} px`;
    case 'javascript': case 'if': return step.value ?? '';
    case 'screenshot': return step.value?.trim().toLowerCase() === 'full' ? 'full page' : 'viewport';
    case 'set': return varName ?? '';
    case 'upload': return `${step.value ?? ''} into ${selector}`;
    case 'select': return `${selector} = ${step.value ?? ''}`;
    case 'drag_and_drop': return `${selector} to ${step.target ?? ''}`;
    case 'wait_network_idle': return `${step.value?.trim() || 500} ms quiet`;
    default: return selector;
  }
}

function withoutSecrets(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin + parsed.pathname;
  } catch {
    return url.replace(/[?#].*$/, ''); // relative
  }
}
