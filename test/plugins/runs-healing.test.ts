// Healing through the service (README "Healing"), on a real Chromium: a run that succeeds stores its elements'
// fingerprints; a later run on a changed page repairs its broken selectors and proposes them (propose, the
// default), a person accepts or rejects them through the API; `apply` saves a version at once; `off` fails as
// before; a page without the target fails naming the refused candidates. The AI step with the OpenAI stand-ins:
// a wrong selector is refused, the next provider's right one taken, every call counted; unchanged pages make none.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startOpenAiStandIn, type ChatStandIn } from '../stand-ins/openai.js';
import { startWebhookReceiver } from '../stand-ins/webhook-receiver.js';
import { renderVariant, serveVariants, type Variant, type VariantServer } from '../support/healing-variants.js';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();
const ORIGINAL: Variant = { name: 'original', mutations: [] };
const RENAMED: Variant = { name: 'renamed', mutations: ['ids', 'testids', 'classes', 'wrap'] };
const TWINS: Variant = { name: 'ids+twin', mutations: ['ids', 'twin'] };
const WITHOUT_MUG: Variant = { name: 'without the mug', mutations: ['ids', 'testids'], removed: 'add-mug' };
const SHOP_ACTIONS = [
  { type: 'type', selector: '#email', value: 'me@example.com', timeoutMs: 1500 },
  { type: 'click', selector: '[data-testid="add-blue-mug"]', timeoutMs: 1500 },
];
const EXTRACT = 'return { email: document.querySelector("input[type=email]").value, clicked: document.body.getAttribute("data-clicked") }';

interface LogLine { level: string; message: string }

describe('runs: healing', { skip: chromium.skip }, () => {
  let svc: TestService;
  let site: VariantServer;
  let A: ChatStandIn;
  let B: ChatStandIn;
  let apiKey: string;
  const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
  const createTask = async (task: Record<string, unknown>): Promise<string> => {
    const res = await api('POST', '/api/tasks', { body: { name: 'healing', mode: 'agent', url: `${site.origin}/current`, ...task } });
    assert.equal(res.status, 200, res.text);
    return res.body.id;
  };
  const run = async (taskId: string) => {
    const res = await api('POST', `/api/tasks/${taskId}/api`);
    assert.equal(res.status, 200, res.text);
    const record = (await api('GET', `/api/executions/${res.body.executionId}`)).body;
    return { answer: res.body, record, logs: record.logs as LogLine[] };
  };
  const repairsOf = async (taskId: string) => (await api('GET', `/api/tasks/${taskId}/repairs`)).body;
  const aiCallsMetric = async () => {
    const text = (await api('GET', '/api/metrics')).text;
    return Number(/^taskloom_run_ai_calls_total (\d+)/m.exec(text)?.[1]);
  };

  before(async () => {
    site = await serveVariants([ORIGINAL, RENAMED]); // also /v/0 and /v/1, for a page in a frame
    [A, B] = await Promise.all([startOpenAiStandIn(), startOpenAiStandIn()]);
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', PROVIDER_A_BASE_URL: A.url, PROVIDER_B_BASE_URL: B.url });
    ({ apiKey } = await setupAdmin(svc));
    for (const [slot, key] of [['a', 'AIza-heal-key-a-1111'], ['b', 'sk-heal-key-b-2222']] as const) {
      const res = await api('POST', `/api/settings/provider-${slot}-api-key`, { body: { [`provider${slot.toUpperCase()}ApiKeys`]: [key] } });
      assert.equal(res.status, 200, res.text);
    }
  });
  after(async () => {
    await svc?.close();
    await Promise.all([site?.close(), A?.close(), B?.close()]);
  });

  it('fingerprints after a success, proposes repairs on a changed page, and takes a person\'s accept and reject', async (t) => {
    site.show(ORIGINAL);
    const taskId = await createTask({ actions: SHOP_ACTIONS, extractionScript: EXTRACT });
    const events = await startWebhookReceiver();
    t.after(() => events.close());
    const subscribed = await api('POST', '/api/webhooks', { body: { url: `${events.url}/events`, events: ['task.repair_proposed'], taskIds: [taskId] } });
    assert.equal(subscribed.status, 200, subscribed.text);
    const first = await run(taskId);
    assert.equal(first.answer.status, 'success', JSON.stringify(first.answer));
    assert.deepEqual((await repairsOf(taskId)).fingerprints.map((f: { selector: string }) => f.selector), ['#email', '[data-testid="add-blue-mug"]']);

    site.show(RENAMED);
    const healed = await run(taskId);
    assert.equal(healed.answer.status, 'success', JSON.stringify(healed.answer));
    assert.deepEqual(healed.answer.result.data, { email: 'me@example.com', clicked: 'add-mug' }, 'the repaired actions hit the right elements');
    assert.equal(healed.record.result.aiCalls, undefined, 'the deterministic step needed no AI');
    const said = healed.logs.filter((l) => /^healing: selector/.test(l.message));
    assert.equal(said.length, 2, JSON.stringify(healed.logs));
    assert.ok(said.every((l) => l.level === 'warn' && /proposed/.test(l.message)));
    const { repairs } = await repairsOf(taskId);
    assert.equal(repairs.length, 2);
    for (const repair of repairs) {
      assert.equal(repair.status, 'proposed');
      assert.equal(repair.source, 'deterministic');
      assert.ok(repair.score >= 0.55, `score ${repair.score}`);
      assert.ok(healed.answer.result.captures.includes(repair.screenshot), 'a cropped screenshot of the element is a capture of the run');
      const png = await api('GET', `/api/data/captures/${repair.screenshot}`);
      assert.equal(png.status, 200);
    }
    const task = (await api('GET', `/api/tasks/${taskId}`)).body;
    assert.deepEqual(task.actions.map((a: { selector: string }) => a.selector), SHOP_ACTIONS.map((a) => a.selector), 'propose leaves the task as it is');
    // Each proposal is an event for the webhook subscription.
    await events.waitFor(2, 30_000);
    const proposed = events.received.map((r) => r.body);
    assert.deepEqual(proposed.map((e) => [e.type, e.data.taskId, e.data.executionId]).sort(),
      [['task.repair_proposed', taskId, healed.answer.executionId], ['task.repair_proposed', taskId, healed.answer.executionId]]);
    assert.deepEqual(proposed.map((e) => e.data.repair.id).sort(), repairs.map((r: { id: string }) => r.id).sort());

    // The same page again: no second proposal of the same repairs.
    assert.equal((await run(taskId)).answer.status, 'success');
    assert.equal((await repairsOf(taskId)).repairs.length, 2);

    const byAction = (index: number) => repairs.find((r: { actionIndex: number }) => r.actionIndex === index);
    const accepted = await api('POST', `/api/tasks/${taskId}/repairs/${byAction(0).id}/accept`);
    assert.equal(accepted.status, 200, accepted.text);
    assert.equal(accepted.body.status, 'accepted');
    const again = await api('POST', `/api/tasks/${taskId}/repairs/${byAction(0).id}/accept`);
    assert.deepEqual([again.status, again.body.error], [409, 'REPAIR_NOT_PROPOSED']);
    const rejected = await api('POST', `/api/tasks/${taskId}/repairs/${byAction(1).id}/reject`);
    assert.equal(rejected.status, 200, rejected.text);
    const updated = (await api('GET', `/api/tasks/${taskId}`)).body;
    assert.equal(updated.actions[0].selector, byAction(0).newSelector, 'accepting saves the new selector');
    assert.equal(updated.versions.length, 1, 'as a new version (the old one in the history)');
    assert.equal(updated.versions[0].snapshot.actions[0].selector, '#email');

    const refused = await run(taskId);
    assert.equal(refused.answer.status, 'error');
    assert.equal(refused.answer.result.error.actionIndex, 1);
    assert.match(refused.answer.result.error.message, /healing: the repair to .* was rejected for this page/);
    assert.equal((await repairsOf(taskId)).repairs.length, 2, 'a rejected repair is not proposed again');

    site.show(WITHOUT_MUG);
    const gone = await run(taskId);
    assert.equal(gone.answer.status, 'error');
    assert.match(gone.answer.result.error.message, /healing: .*candidates refused: .*\(0\.\d+\)/);
    assert.equal((await api('GET', '/api/tasks/nope/repairs')).status, 404);
  });

  it('apply saves the repair as a task version at once; off fails as before', async () => {
    site.show(ORIGINAL);
    const applying = await createTask({ actions: SHOP_ACTIONS, extractionScript: EXTRACT, healing: 'apply' });
    const off = await createTask({ actions: SHOP_ACTIONS, extractionScript: EXTRACT, healing: 'off' });
    assert.equal((await run(applying)).answer.status, 'success');
    assert.equal((await run(off)).answer.status, 'success');
    assert.deepEqual((await repairsOf(off)).fingerprints, [], 'off takes no fingerprint');

    site.show(RENAMED);
    const healed = await run(applying);
    assert.equal(healed.answer.status, 'success', JSON.stringify(healed.answer));
    const task = (await api('GET', `/api/tasks/${applying}`)).body;
    const { repairs, fingerprints } = await repairsOf(applying);
    assert.deepEqual(repairs.map((r: { status: string }) => r.status), ['applied', 'applied']);
    assert.deepEqual(task.actions.map((a: { selector: string }) => a.selector).sort(), repairs.map((r: { newSelector: string }) => r.newSelector).sort());
    assert.equal(task.versions.length, 2, 'one version per applied repair, each revertible');
    assert.deepEqual(fingerprints.map((f: { selector: string }) => f.selector).sort(), task.actions.map((a: { selector: string }) => a.selector).sort(),
      'the new selectors\' elements are the reference now');
    assert.equal((await run(applying)).answer.status, 'success', 'the next run needs no repair');
    assert.equal((await repairsOf(applying)).repairs.length, 2);

    const failed = await run(off);
    assert.equal(failed.answer.status, 'error');
    assert.doesNotMatch(failed.answer.result.error.message, /healing/);
  });

  it('makes no AI call over 100 runs of an unchanged page', async () => {
    site.show(ORIGINAL);
    A.reset();
    B.reset();
    const before = await aiCallsMetric();
    const taskId = await createTask({ actions: [{ type: 'wait_selector', selector: '#login-btn', timeoutMs: 5000 }, { type: 'click', selector: '#cart-link' }] });
    for (let i = 0; i < 100; i++) {
      const { answer, record } = await run(taskId);
      assert.equal(answer.status, 'success', JSON.stringify(answer));
      assert.equal(record.result.aiCalls, undefined);
    }
    assert.equal(A.requests.length + B.requests.length, 0);
    assert.equal(await aiCallsMetric(), before, 'the metrics count no provider call');
  });

  it('asks the providers when the page is not decisive: a wrong selector is refused, a right one taken, each call counted', async () => {
    site.show(ORIGINAL);
    const taskId = await createTask({ actions: [{ type: 'click', selector: '#cart-link', timeoutMs: 1500 }] });
    assert.equal((await run(taskId)).answer.status, 'success');
    // Ids renamed and a second Cart link beside the first, alike in all but its id: the page cannot tell which is
    // meant (the deterministic step refuses the tie), so the providers are asked.
    site.show(TWINS);
    A.reset();
    B.reset();
    A.answer({ text: 'a[href="/"]' });
    B.answer({ text: '`#nav-basket`' });
    const before = await aiCallsMetric();
    const healed = await run(taskId);
    assert.equal(healed.answer.status, 'success', JSON.stringify(healed.answer));
    assert.equal(healed.record.result.aiCalls, 2);
    assert.equal(await aiCallsMetric(), before + 2);
    const sent = JSON.stringify(A.requests[0]!.body);
    assert.match(sent, /cart-link/, 'the provider is told the broken selector');
    assert.match(sent, /Fingerprint/);
    const [repair] = (await repairsOf(taskId)).repairs;
    assert.deepEqual([repair.source, repair.newSelector, repair.status], ['ai', '#nav-basket', 'proposed']);

    // While that proposal waits for a person, later runs on the same page take it again without asking anyone.
    const asked = A.requests.length + B.requests.length;
    for (let i = 0; i < 3; i++) {
      const again = await run(taskId);
      assert.equal(again.answer.status, 'success', JSON.stringify(again.answer));
      assert.equal(again.record.result.aiCalls, undefined, 'no provider call');
      assert.ok(again.logs.some((l) => l.level === 'warn' && l.message.includes(`"#nav-basket" (score`) && l.message.includes(`proposed before as ${repair.id}, no provider asked`)),
        JSON.stringify(again.logs));
    }
    assert.equal(A.requests.length + B.requests.length, asked, 'the stand-ins were not called');
    assert.equal(await aiCallsMetric(), before + 2, 'the metrics count the first two calls only');
    assert.equal((await repairsOf(taskId)).repairs.length, 1, 'no second proposal');

    // The page changes again (neither link has an id now): the proposal no longer fits, so the providers are asked.
    site.showHtml(renderVariant(TWINS).replace('id="nav-basket" ', ''));
    A.answer({ text: 'nav > a:nth-of-type(3)' });
    const changed = await run(taskId);
    assert.equal(changed.answer.status, 'success', JSON.stringify(changed.answer));
    assert.equal(changed.record.result.aiCalls, 1);
    assert.ok(changed.logs.some((l) => l.message.includes(`the proposed repair ${repair.id} (#nav-basket) no longer fits this page`)), JSON.stringify(changed.logs));
    assert.deepEqual((await repairsOf(taskId)).repairs.map((r: { newSelector: string; status: string }) => [r.newSelector, r.status]),
      [['nav > a:nth-of-type(3)', 'proposed'], ['#nav-basket', 'proposed']]);

    // Every answer wrong: refused, and the run fails naming the candidates.
    const other = await createTask({ actions: [{ type: 'click', selector: '#cart-link', timeoutMs: 1500 }] });
    site.show(ORIGINAL);
    assert.equal((await run(other)).answer.status, 'success');
    site.show(TWINS);
    A.reset();
    B.reset();
    A.answer({ text: 'footer a[href="/terms"]' });
    B.answer({ text: 'a[href="/"]' });
    const failed = await run(other);
    assert.equal(failed.answer.status, 'error');
    assert.equal(failed.record.result.aiCalls, 2);
    assert.match(failed.answer.result.error.message, /not clearly ahead of .*candidates refused/, 'the page alone was not decisive');
    assert.ok(failed.logs.some((l) => /AI step found nothing: .*answer refused, footer .* is in the footer.*answer refused, a\[href="\/"\]/.test(l.message)), JSON.stringify(failed.logs));
  });

  it('fingerprints the element of a generated selector for a saved task, so a run repairs it before any run succeeded', async () => {
    site.show(ORIGINAL);
    const taskId = await createTask({ actions: [{ type: 'click', selector: '#placeholder', timeoutMs: 1500 }] });
    A.reset();
    B.reset();
    A.answer({ text: '#cart-link' });
    const generated = await api('POST', '/api/tasks/generate-selector', {
      body: { task: { id: taskId, url: `${site.origin}/current`, actions: [{ type: 'click', selector: '#placeholder' }] }, actionIndex: 0, prompt: 'the cart link' },
    });
    assert.deepEqual([generated.status, generated.body], [200, { selector: '#cart-link' }], generated.text);
    assert.deepEqual((await repairsOf(taskId)).fingerprints.map((f: { actionIndex: number; selector: string }) => [f.actionIndex, f.selector]), [[0, '#cart-link']]);
    const saved = await api('PATCH', `/api/tasks/${taskId}`, { body: { actions: [{ type: 'click', selector: '#cart-link', timeoutMs: 1500 }] } });
    assert.equal(saved.status, 200, saved.text);
    site.show({ name: 'ids', mutations: ['ids'] });
    const healed = await run(taskId);
    assert.equal(healed.answer.status, 'success', JSON.stringify(healed.answer));
    assert.equal((await repairsOf(taskId)).repairs[0].newSelector, '#nav-basket');
  });

  it('generates a whole task from a goal, each step checked on the live page, and its runs replay it without AI', async () => {
    site.show(ORIGINAL);
    A.reset();
    B.reset();
    // A's second proposal matches nothing: refused, B's taken instead.
    A.answer(
      { text: '{"type":"type","selector":"#email","value":"me@example.com"}' },
      { text: '{"type":"click","selector":"#no-such-button"}' },
      { text: '```json\n{"type":"done"}\n```' },
    );
    B.answer({ text: '{"type":"click","selector":"[data-testid=\\"add-blue-mug\\"]"}' });
    const generated = await api('POST', '/api/tasks/generate-task', { body: { goal: 'put the blue mug in the cart', url: `${site.origin}/current`, maxSteps: 5 } });
    assert.equal(generated.status, 200, generated.text);
    const { task, aiCalls, refused } = generated.body;
    assert.deepEqual(task.actions.map((a: { type: string; selector?: string }) => [a.type, a.selector]), [['type', '#email'], ['click', '[data-testid="add-blue-mug"]']]);
    assert.equal(aiCalls, 4);
    assert.deepEqual(refused, ['#no-such-button (0 matches)']);
    assert.equal((await repairsOf(task.id)).fingerprints.length, 2, 'each step\'s element is fingerprinted');

    const before = A.requests.length + B.requests.length;
    assert.equal((await run(task.id)).answer.status, 'success');
    site.show(RENAMED);
    const healed = await run(task.id);
    assert.equal(healed.answer.status, 'success', JSON.stringify(healed.answer));
    assert.equal(A.requests.length + B.requests.length, before, 'its runs, repairs included, ask no provider');
    assert.equal((await repairsOf(task.id)).repairs.length, 2);
  });

  it('heals actions inside a frame, the later action types too (double_click)', async () => {
    const framed = (n: number) => `<!doctype html><body><h1>Outer</h1><iframe id="shop" src="/v/${n}" width="900" height="700"></iframe></body>`;
    site.showHtml(framed(0));
    const taskId = await createTask({
      actions: [
        { type: 'type', selector: '#email', value: 'me@example.com', frame: '#shop', timeoutMs: 1500 },
        { type: 'double_click', selector: '[data-testid="add-blue-mug"]', frame: '#shop', timeoutMs: 1500 },
      ],
      extractionScript: 'const d = document.querySelector("#shop").contentDocument; return { email: d.querySelector("input[type=email]").value, clicked: d.body.getAttribute("data-clicked") }',
    });
    const first = await run(taskId);
    assert.equal(first.answer.status, 'success', JSON.stringify(first.answer));
    assert.deepEqual((await repairsOf(taskId)).fingerprints.map((f: { selector: string }) => f.selector), ['#email', '[data-testid="add-blue-mug"]'],
      'the elements in the frame are fingerprinted');
    site.showHtml(framed(1));
    const healed = await run(taskId);
    assert.equal(healed.answer.status, 'success', JSON.stringify(healed.logs));
    assert.deepEqual(healed.answer.result.data, { email: 'me@example.com', clicked: 'add-mug' }, 'the repaired actions hit the right elements in the frame');
    assert.deepEqual((await repairsOf(taskId)).repairs.map((r: { oldSelector: string }) => r.oldSelector), ['#email', '[data-testid="add-blue-mug"]']);
  });

  it('with healingCheck, a selector that now matches another element is repaired before it acts', async () => {
    site.show(ORIGINAL);
    const actions = [{ type: 'click', selector: '.btn.add', timeoutMs: 1500 }];
    const extractionScript = 'return document.body.getAttribute("data-clicked")';
    const checked = await createTask({ actions, extractionScript, healingCheck: true });
    const unchecked = await createTask({ actions, extractionScript });
    for (const taskId of [checked, checked, unchecked]) assert.equal((await run(taskId)).answer.result.data, 'add-mug');
    assert.deepEqual((await repairsOf(checked)).repairs, [], 'the unchanged page needs no repair');
    // The cards in reverse order: ".btn.add" now finds the green chair's button first.
    site.show({ name: 'move', mutations: ['move'] });
    assert.equal((await run(unchecked)).answer.result.data, 'other', 'without the check the run acts on another element');
    const healed = await run(checked);
    assert.equal(healed.answer.result.data, 'add-mug', JSON.stringify(healed.logs));
    assert.ok(healed.logs.some((l) => /no longer matches its fingerprint/.test(l.message)));
    const [repair] = (await repairsOf(checked)).repairs;
    assert.deepEqual([repair.oldSelector, repair.newSelector], ['.btn.add', '[data-testid="add-blue-mug"]']);
  });
});
