// Healing for the runs (README "Healing"). Decisions:
// - A task's `healing` is `off`, `propose` (default) or `apply`; its `healingThreshold` (default 0.55) is the least
//   score a repair needs. Off: no fingerprint is taken and a broken selector fails the run as before.
// - Fingerprints are kept per action and selector with the task (the healing store), written only after a run
//   succeeded, and only when none was stored for that action and selector: a run of an unchanged task with
//   every fingerprint stored costs nothing more.
// - The ladder for a selector that matches nothing: (a) the stored fingerprint matched against the page and the
//   acceptance rule (layers/healing/decide.ts); (b) when that is not decisive and an AI advisor is set (the AI
//   plugin sets one when providers are configured), the provider chain with the page and the fingerprint, its
//   answer checked (layers/healing/ai-check.ts); otherwise the run fails as before, naming the candidates.
// - A repair is never silent: it is logged (warn), stored as a repair with its score, runner-up and a cropped
//   screenshot, and told to `events` ('repair'); `propose` keeps the task as it is until a person accepts, `apply`
//   saves a task version at once (revertible like any version). A repair a person rejected is not made again for
//   the same page state (a digest of the element taken): the run fails instead.
// - An AI repair still proposed (made since the action's fingerprint was stored) is tried first on later runs: while
//   its selector passes the same check on the page, no provider is asked again; only when it no longer fits (the page
//   changed again) are they.
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { BrowserPage } from '../../../kernel/contracts/browser.js';
import type { ActionFingerprint, ElementFingerprint, SelectorRepair, TaskHealingRecord } from '../../../layers/healing/records.js';
import type { DocumentStore, TaskStore } from '../../../kernel/contracts/storage.js';
import type { Logger } from '../../../kernel/contracts/logger.js';
import {
  DEFAULT_THRESHOLDS, checkAiSelector, describeCandidates, matchFingerprint, saveSelectorVersion, type HealingThresholds, type MatchCandidate,
} from '../../../layers/healing/index.js';
import type { RunnerHealing } from '../runner/index.js';
import { cropElement } from './crop-element.js';

export type HealingMode = 'off' | 'propose' | 'apply';
const MAX_REPAIRS = 50;

/** What the AI plugin offers for step (b): asks the chain until `accept` takes an answer; counts provider calls. */
export type RepairAdvisor = (question: {
  fingerprint: ElementFingerprint;
  oldSelector: string;
  actionType: string;
  html: string;
  url: string;
  accept(selector: string): Promise<{ ok: true } | { ok: false; reason: string }>;
  signal: AbortSignal;
}) => Promise<{ selector?: string; calls: number; reason?: string }>;

/** Told for every repair a run made: `task.repair_proposed` / `task.repair_applied` for webhooks and streams. */
export interface RepairEvent {
  type: 'task.repair_proposed' | 'task.repair_applied';
  taskId: string;
  executionId: string;
  repair: SelectorRepair;
}

export interface RunHealingDeps {
  store: DocumentStore<TaskHealingRecord> | undefined;
  tasks: TaskStore;
  logger: Logger;
  /** Counts provider calls (the metrics plugin's counter). */
  aiCalled?(calls: number): void;
}

export interface RunHealingTask {
  id?: string;
  updatedAt?: string;
  healing?: unknown;
  healingThreshold?: unknown;
  healingCheck?: unknown;
}

/** What a run gives healing: its ids, log and capture saving. */
export interface HealingRunContext {
  executionId: string;
  log(level: 'info' | 'warn', message: string, actionIndex?: number): void;
  saveCapture(data: Buffer, ext: 'png'): Promise<string>;
  signal: AbortSignal;
}

export function modeOf(task: RunHealingTask): HealingMode {
  return task.healing === 'off' || task.healing === 'apply' ? task.healing : 'propose';
}

export function thresholdsOf(task: RunHealingTask): HealingThresholds {
  const value = task.healingThreshold;
  return typeof value === 'number' && value >= 0.5 && value <= 1 ? { ...DEFAULT_THRESHOLDS, threshold: value } : DEFAULT_THRESHOLDS;
}

/** The page state a repair was made on: the element taken, as the page showed it. */
export function pageStateOf(actionIndex: number, oldSelector: string, newSelector: string, fingerprint: ElementFingerprint): string {
  return crypto.createHash('sha256').update(JSON.stringify([actionIndex, oldSelector, newSelector, fingerprint])).digest('base64url').slice(0, 32);
}

export function createRunHealing(deps: RunHealingDeps) {
  const events = new EventEmitter<{ repair: [RepairEvent] }>();
  let advisor: RepairAdvisor | undefined;

  async function read(taskId: string): Promise<TaskHealingRecord> {
    return (await deps.store?.get(taskId)) ?? { id: taskId, fingerprints: [], repairs: [] };
  }

  async function change(taskId: string, edit: (record: TaskHealingRecord) => TaskHealingRecord): Promise<void> {
    const store = deps.store;
    if (!store) return;
    const updated = await store.update(taskId, edit);
    if (!updated) await store.put(edit({ id: taskId, fingerprints: [], repairs: [] }));
  }

  /**
   * The runner's healing for one run of a stored task; undefined when healing is off, the storage has no healing
   * store, or the task is unsaved. `finish` stores what the run learnt (after it ended).
   */
  async function forRun(task: RunHealingTask, run: HealingRunContext): Promise<{ hooks: RunnerHealing; finish(success: boolean): Promise<{ aiCalls: number }> } | undefined> {
    const mode = modeOf(task);
    const taskId = task.id;
    if (mode === 'off' || !deps.store || !taskId) return undefined;
    const record = await read(taskId).catch((error: unknown) => {
      deps.logger.warn({ err: error, taskId }, 'the task\'s fingerprints could not be read: this run neither fingerprints nor repairs');
      return undefined;
    });
    if (!record) return undefined;
    const known: TaskHealingRecord = record;
    const limits = thresholdsOf(task);
    const stored = (index: number, selector: string) => known.fingerprints.find((f) => f.actionIndex === index && f.selector === selector);
    const taken = new Map<number, ActionFingerprint>();
    const repairs: SelectorRepair[] = [];
    let aiCalls = 0;

    async function repair(index: number, type: string, selector: string, page: BrowserPage): Promise<{ selector: string } | { reason: string } | undefined> {
      const reference = stored(index, selector);
      if (!reference) return undefined; // nothing to repair from until a run succeeded: the error stands as it is
      return repairFrom(index, type, selector, page, reference);
    }

    async function repairFrom(
      index: number, type: string, selector: string, page: BrowserPage, reference: ActionFingerprint, why = 'matches nothing',
    ): Promise<{ selector: string } | { reason: string }> {
      const decision = await matchFingerprint(page, reference.fingerprint, limits);
      let chosen: { candidate: MatchCandidate; runnerUp?: MatchCandidate; selector: string; source: 'deterministic' | 'ai' } | undefined;
      let reused: SelectorRepair | undefined;
      if (decision.accepted) {
        chosen = { ...decision, selector: decision.candidate.selector, source: 'deterministic' };
      } else {
        // An AI repair still waiting for a person, made from this very reference: tried before any provider is
        // asked again, so a task in `propose` does not pay for the same answer on every run.
        const pending = pendingAiRepair(index, selector, reference);
        const checked = pending && await checkAiSelector(page, pending.newSelector, reference.fingerprint, limits).catch(() => undefined);
        if (pending && checked?.ok) {
          reused = pending;
          chosen = { candidate: checked.candidate, ...(checked.runnerUp ? { runnerUp: checked.runnerUp } : {}), selector: pending.newSelector, source: 'ai' };
        } else if (advisor) {
          if (pending) run.log('info', `healing: the proposed repair ${pending.id} (${pending.newSelector}) no longer fits this page (${checked?.ok === false ? checked.reason : 'it could not be checked'}); asking the providers again`, index);
          const picked = await askAdvisor(reference.fingerprint, selector, type, page);
          if (picked) chosen = { ...picked, source: 'ai' };
          else run.log('warn', 'healing: no AI answer was taken', index);
        }
      }
      if (!chosen) {
        if (decision.accepted) return { reason: 'no candidate taken' };
        return { reason: `${decision.reason}; candidates refused: ${describeCandidates(decision.candidates)}` };
      }
      const pageState = pageStateOf(index, selector, chosen.selector, chosen.candidate.fingerprint);
      const before = known.repairs.find((r) => r.pageState === pageState);
      if (before?.status === 'rejected') return { reason: `the repair to ${chosen.selector} was rejected for this page (repair ${before.id})` };
      run.log('warn', `healing: selector "${selector}" ${why}; ${mode === 'apply' ? 'repaired' : 'repaired for this run (proposed)'} as "${chosen.selector}" `
        + `(score ${chosen.candidate.score}${chosen.runnerUp ? `, runner-up ${chosen.runnerUp.selector} ${chosen.runnerUp.score}` : ''}, ${chosen.source}`
        + `${reused ? `: proposed before as ${reused.id}, no provider asked` : ''})`, index);
      if (before || reused) return { selector: chosen.selector }; // proposed already (for this very page state)
      const screenshot = await cropElement(page, chosen.selector).then((png) => (png ? run.saveCapture(png, 'png') : undefined)).catch(() => undefined);
      repairs.push({
        id: `rep_${crypto.randomBytes(9).toString('base64url')}`,
        actionIndex: index, oldSelector: selector, newSelector: chosen.selector, score: chosen.candidate.score,
        ...(chosen.runnerUp ? { runnerUp: { selector: chosen.runnerUp.selector, score: chosen.runnerUp.score } } : {}),
        source: chosen.source, status: mode === 'apply' ? 'applied' : 'proposed', pageState, executionId: run.executionId,
        ...(screenshot ? { screenshot } : {}), fingerprint: chosen.candidate.fingerprint, createdAt: new Date().toISOString(),
      });
      // Applied, the new selector is the action's: its element's fingerprint replaces the old one. Proposed, the
      // task keeps the old selector, and the old fingerprint stays what later runs repair from.
      if (mode === 'apply') {
        taken.set(index, { actionIndex: index, selector: chosen.selector, fingerprint: chosen.candidate.fingerprint, taskVersion: task.updatedAt ?? '', savedAt: new Date().toISOString() });
      } else {
        taken.delete(index);
      }
      return { selector: chosen.selector };
    }

    /** The newest AI repair of this action and selector still proposed, made since `reference` was stored. */
    function pendingAiRepair(index: number, selector: string, reference: ActionFingerprint): SelectorRepair | undefined {
      return known.repairs.find((r) => r.status === 'proposed' && r.source === 'ai' && r.actionIndex === index && r.oldSelector === selector
        && r.createdAt >= reference.savedAt);
    }

    async function askAdvisor(fingerprint: ElementFingerprint, oldSelector: string, actionType: string, page: BrowserPage) {
      let found: { candidate: MatchCandidate; runnerUp?: MatchCandidate; selector: string } | undefined;
      const html = await page.content().catch(() => '');
      const answer = await advisor!({
        fingerprint, oldSelector, actionType, html, url: page.url(), signal: run.signal,
        accept: async (selector) => {
          const checked = await checkAiSelector(page, selector, fingerprint, limits);
          if (!checked.ok) return checked;
          found = { candidate: checked.candidate, ...(checked.runnerUp ? { runnerUp: checked.runnerUp } : {}), selector };
          return { ok: true };
        },
      }).catch((error: unknown) => ({ calls: 0, reason: error instanceof Error ? error.message : String(error) }));
      aiCalls += answer.calls;
      if (answer.calls > 0) deps.aiCalled?.(answer.calls);
      if (answer.reason) run.log('warn', `healing: the AI step found nothing: ${answer.reason}`);
      return found;
    }

    /** The fingerprint check (`healingCheck: true`): the selector matches, but is its element still the target? */
    async function check(index: number, type: string, selector: string, page: BrowserPage): Promise<{ selector: string } | { reason: string } | undefined> {
      const reference = task.healingCheck === true ? stored(index, selector) : undefined;
      if (!reference) return undefined;
      const verdict = await checkAiSelector(page, selector, reference.fingerprint, limits, { firstMatch: true }).catch(() => undefined);
      if (!verdict || verdict.ok || / matches 0 elements|not a CSS selector/.test(verdict.reason)) return undefined;
      run.log('warn', `healing: selector "${selector}" no longer matches its fingerprint (${verdict.reason})`, index);
      return repairFrom(index, type, selector, page, reference, 'matches another element than its fingerprint');
    }

    const hooks: RunnerHealing = {
      check,
      wants: (index, selector) => !stored(index, selector) && !taken.has(index),
      fingerprinted(index, selector, fingerprint) {
        taken.set(index, { actionIndex: index, selector, fingerprint, taskVersion: task.updatedAt ?? '', savedAt: new Date().toISOString() });
      },
      repair,
    };

    async function finish(success: boolean): Promise<{ aiCalls: number }> {
      // Fingerprints only from a run that succeeded; repairs (proposed or applied) whatever happened after them.
      const fingerprints = success ? [...taken.values()] : [];
      for (const made of repairs) {
        if (made.status !== 'applied') continue;
        const saved = await saveSelectorVersion(deps.tasks, taskId!, made.actionIndex, made.oldSelector, made.newSelector)
          .catch((error: unknown) => ({ refused: `the storage failed: ${error instanceof Error ? error.message : String(error)}` }));
        if ('refused' in saved) {
          made.status = 'proposed';
          run.log('warn', `healing: the repair could not be saved as a version (${saved.refused}); it is proposed instead`, made.actionIndex);
        } else {
          made.taskVersion = saved.taskVersion;
          made.decidedAt = new Date().toISOString();
        }
      }
      if (fingerprints.length === 0 && repairs.length === 0) return { aiCalls };
      try {
        await change(taskId!, (current) => ({
          ...current,
          fingerprints: [
            ...current.fingerprints.filter((f) => !fingerprints.some((n) => n.actionIndex === f.actionIndex)),
            ...fingerprints,
          ].sort((a, b) => a.actionIndex - b.actionIndex),
          repairs: [...repairs, ...current.repairs].slice(0, MAX_REPAIRS),
        }));
      } catch (error) {
        deps.logger.warn({ err: error, taskId }, 'the task\'s fingerprints and repairs could not be stored');
        return { aiCalls };
      }
      for (const made of repairs) {
        events.emit('repair', { type: made.status === 'applied' ? 'task.repair_applied' : 'task.repair_proposed', taskId: taskId!, executionId: run.executionId, repair: made });
      }
      return { aiCalls };
    }

    return { hooks, finish };
  }

  return {
    forRun,
    /** 'repair' events: a repair was proposed or applied (webhooks and streams subscribe here). */
    events,
    /** The AI plugin's step (b); undefined: the ladder stops after the deterministic step. */
    setAdvisor(next: RepairAdvisor | undefined) {
      advisor = next;
    },
  };
}

export type RunHealing = ReturnType<typeof createRunHealing>;
