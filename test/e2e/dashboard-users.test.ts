// Team access in the dashboard, in real Chromium: an admin invites by link (shown once) and adds a user with a
// password; the invitee joins from the link and lands logged in; a viewer sees no Save, Run or New task; the admin
// changes a role and revokes an invitation; the Users page holds up in all four themes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright';
import { dashboardSkipReason, openDashboard } from '../support/dashboard.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard users: ${skip}`);
const PASSWORD = 'a long team password';

describe('dashboard: users and invitations', { skip }, () => {
  let svc: TestService;
  let browser: Browser;
  let admin: Page;
  let problems: string[];
  let taskId: string;

  before(async () => {
    svc = await startService();
    const { cookie } = await setupAdmin(svc);
    const task = await svc.request('POST', '/api/tasks', { cookie, body: { name: 'Read me', url: 'https://example.com/', mode: 'scrape', actions: [] } });
    taskId = task.body.id;
    ({ browser, page: admin, problems } = await openDashboard(svc.baseUrl, '/users', 'Users'));
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  /** A fresh browser context (another person) on `path`. */
  const stranger = async (path: string) => {
    const context = await browser.newContext({ baseURL: svc.baseUrl });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await page.goto(path);
    return page;
  };

  it('invites by link, shown once; the invitee joins from it and is logged in as an editor', async () => {
    await admin.getByRole('row', { name: /Ada Admin/ }).getByText('(you)').waitFor();
    const invite = admin.getByRole('region', { name: 'Invite someone' });
    await invite.getByLabel('Email').fill('eve@example.com');
    await invite.getByLabel('Role').selectOption('editor');
    await invite.getByRole('button', { name: 'Create invitation link' }).click();
    const field = admin.getByRole('textbox', { name: /Invitation link for eve@example.com/ });
    const url = await field.inputValue();
    assert.match(url, new RegExp(`^${svc.baseUrl}/invitation#inv_`));
    await admin.getByRole('list', { name: 'Pending invitations' }).getByText('eve@example.com').waitFor();
    await admin.getByRole('button', { name: 'Done' }).click();
    assert.equal(await admin.getByRole('textbox', { name: /Invitation link/ }).count(), 0, 'the link stays on screen');

    const eve = await stranger(new URL(url).pathname + new URL(url).hash);
    await eve.getByRole('heading', { name: 'Join taskloom' }).waitFor();
    await eve.getByLabel('Name').fill('Eve Editor');
    await eve.getByLabel('Password').fill(PASSWORD);
    await eve.getByRole('button', { name: 'Join' }).click();
    await eve.getByRole('heading', { name: 'Tasks', level: 1 }).waitFor();
    assert.equal(new URL(eve.url()).hash, '', 'the token left the address bar');
    await eve.getByText('Eve Editor (editor)').waitFor();
    assert.equal(await eve.getByRole('link', { name: 'Users' }).count(), 0, 'an editor sees no Users page');
    await eve.getByRole('button', { name: 'New task' }).waitFor();
    await eve.context().close();

    // The link is spent: opened again, it is refused saying so.
    const again = await stranger(new URL(url).pathname + new URL(url).hash);
    await again.getByLabel('Name').fill('Mallory');
    await again.getByLabel('Password').fill(PASSWORD);
    await again.getByRole('button', { name: 'Join' }).click();
    await again.getByText(/was used already/).waitFor();
    await again.context().close();
  });

  it('adds a viewer with a password, who sees no Save, Run or New task; then makes them an editor', async () => {
    await admin.reload();
    const add = admin.getByRole('region', { name: 'Add a user with a password' });
    await add.getByLabel('Name').fill('Vic Viewer');
    await add.getByLabel('Email').fill('vic@example.com');
    await add.getByLabel('Password').fill(PASSWORD);
    await add.getByLabel('Role').selectOption('viewer');
    await add.getByRole('button', { name: 'Add user' }).click();
    await admin.getByRole('row', { name: /Vic Viewer/ }).waitFor();

    const vic = await stranger(`/tasks/${taskId}`);
    await vic.getByLabel('Email').fill('vic@example.com');
    await vic.getByLabel('Password').fill(PASSWORD);
    await vic.getByRole('button', { name: 'Log in' }).click();
    await vic.getByRole('heading', { name: 'Read me', level: 1 }).waitFor();
    await vic.getByText(/Read only/).waitFor();
    for (const name of ['Save', 'Run', 'Save & run']) assert.equal(await vic.getByRole('button', { name, exact: true }).count(), 0, name);
    await vic.getByRole('link', { name: 'Tasks', exact: true }).click();
    await vic.getByRole('row', { name: /Read me/ }).waitFor();
    assert.equal(await vic.getByRole('button', { name: 'New task' }).count(), 0);

    // Settings: what only an admin reads is left out, what only an admin changes is read only, and nothing the
    // page asks for is refused.
    const refused: string[] = [];
    vic.on('response', (r) => { if (r.status() >= 400) refused.push(`${r.request().method()} ${new URL(r.url()).pathname} ${r.status()}`); });
    await vic.getByRole('link', { name: 'Settings', exact: true }).click();
    await vic.getByText(/Signed in as a viewer/).waitFor();
    await vic.getByRole('heading', { name: 'Proxies' }).waitFor();
    for (const name of ['System API key', 'API keys', 'AI providers']) {
      assert.equal(await vic.getByRole('heading', { name, exact: true }).count(), 0, `a viewer sees no ${name}`);
    }
    for (const name of ['Proxies', 'Webhooks', 'Appearance']) {
      assert.equal(await vic.getByRole('group', { name: `${name} (read only)` }).count(), 1, `${name} is read only for a viewer`);
    }
    await vic.waitForLoadState('networkidle');
    assert.equal(await vic.getByRole('alert').count(), 0, 'no section shows an error');
    assert.deepEqual(refused, []);

    await admin.getByLabel('Role of Vic Viewer').selectOption('editor');
    await admin.getByText('Vic Viewer is now editor').waitFor({ state: 'attached' });
    const me = await vic.evaluate(() => fetch('/api/auth/me').then((r) => r.json()));
    assert.equal(me.user.role, 'editor', 'the live session has the new role');
    await vic.reload();
    await vic.getByText(/Signed in as an editor/).waitFor();
    assert.equal(await vic.getByRole('group', { name: 'Webhooks (read only)' }).count(), 0, 'an editor changes webhooks');
    assert.equal(await vic.getByRole('group', { name: 'Proxies (read only)' }).count(), 1, 'proxies stay an admin\'s');
    await vic.context().close();
  });

  it('revokes a pending invitation and shows the last admin refusal', async () => {
    const invite = admin.getByRole('region', { name: 'Invite someone' });
    await invite.getByLabel('Email').fill('maybe@example.com');
    await invite.getByRole('button', { name: 'Create invitation link' }).click();
    await admin.getByRole('list', { name: 'Pending invitations' }).getByText('maybe@example.com').waitFor();
    await admin.getByRole('button', { name: 'Revoke the invitation of maybe@example.com' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await admin.getByText('No invitation is pending.').waitFor();

    await admin.getByLabel('Role of Ada Admin').selectOption('viewer');
    await admin.getByText(/last admin/).waitFor();
    assert.equal(await admin.getByLabel('Role of Ada Admin').inputValue(), 'admin', 'the select shows the role kept');
    // The one refusal the page provoked on purpose.
    const expected = problems.filter((p) => p.startsWith('PATCH /api/users/'));
    assert.equal(expected.length, 1, problems.join('\n'));
    assert.deepEqual(problems.filter((p) => !expected.includes(p)), []);
  });

  it('reads well in each of the four themes', async () => {
    for (const theme of ['dark', 'light', 'solarized-light', 'solarized-dark']) {
      await admin.evaluate((t) => { document.documentElement.dataset.theme = t; }, theme);
      const colours = await admin.evaluate(() => {
        const cell = document.querySelector('.data-table thead th')!;
        return { text: getComputedStyle(document.body).color, background: getComputedStyle(document.body).backgroundColor, head: getComputedStyle(cell).backgroundColor };
      });
      assert.notEqual(colours.text, colours.background, theme);
      assert.notEqual(colours.head, 'rgba(0, 0, 0, 0)', `${theme}: the table head has no background`);
    }
  });
});
