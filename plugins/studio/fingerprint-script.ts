import { FINGERPRINT_BODY } from '../../layers/healing/index.js';

/**
 * In-page helper of the studio (needs STUDIO_SCRIPT first): `__taskloomStudio.fingerprint(selectors)` is healing's
 * fingerprint (layers/healing FINGERPRINT_BODY) of the element the first of `selectors` that resolves names, or null.
 * Taken in the page as a step is recorded or an element picked: after a click the page may be another one.
 */
export const FINGERPRINT_SCRIPT = String.raw`(() => {
const S = window.__taskloomStudio;
if (!S || S.fingerprint) return;
const take = function (args) { ${FINGERPRINT_BODY}
};
S.fingerprint = (selectors) => {
  for (const selector of selectors || []) {
    try { const found = take({ selector }); if (found) return found; } catch (e) { /* the next one */ }
  }
  return null;
};
})()`;
