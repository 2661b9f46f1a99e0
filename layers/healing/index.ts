// Healing: fingerprints of the elements a task acts on, and the safe repair of a selector that matches nothing
// (README "Healing"). Shared by the runs, the studio and the tasks plugins.
export { DEFAULT_THRESHOLDS, decide, describeCandidates, type Decision, type HealingThresholds, type MatchCandidate } from './decide.js';
export { countMatches, matchFingerprint, rankCandidates, takeFingerprint } from './match.js';
export { COUNT_BODY, FINGERPRINT_BODY, MATCH_BODY } from './page-script.js';
export { checkAiSelector } from './ai-check.js';
export { saveSelectorVersion, type SelectorChange } from './task-version.js';
export { ActionFingerprint, ElementFingerprint, REPAIR_STATUSES, SelectorRepair, healingStoreOf, type TaskHealingRecord } from './records.js';
export { rememberFingerprint } from './remember.js';
