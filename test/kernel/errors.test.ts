import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { describe, it } from 'node:test';
import { defineError, errorCatalogue, Errors, TaskloomError } from '../../kernel/errors.js';
import { startService } from '../support/service.js';

const rows = (text: string) => [...text.matchAll(/\|\s*(\d{3})\s*\|\s*`([A-Z_]+)`\s*\|/g)].map((m) => `${m[1]} ${m[2]}`).sort();
const catalogueRows = () => errorCatalogue().map((e) => `${e.statusCode} ${e.code}`).sort();

describe('error catalogue', () => {
  it('fills message templates and carries code and status', () => {
    const error = Errors.TASK_NOT_FOUND({ id: 'task_1' });
    assert.ok(error instanceof TaskloomError);
    assert.deepEqual([error.code, error.statusCode, error.message], ['TASK_NOT_FOUND', 404, 'Task task_1 not found']);
    assert.ok(Errors.TASK_NOT_FOUND.is(error));
    assert.ok(!Errors.NOT_FOUND.is(error));
  });

  it('refuses a code defined twice or not in upper case', () => {
    assert.throws(() => defineError('TASK_NOT_FOUND', 404, 'again'), /defined twice/);
    assert.throws(() => defineError('lower_case', 400, 'x'), /upper-case/);
  });

  it('lists the same codes in the catalogue, the README and the OpenAPI document', async () => {
    const readme = await fs.readFile('README.md', 'utf8');
    const table = readme.slice(readme.indexOf('<!-- error-table:start -->'), readme.indexOf('<!-- error-table:end -->'));
    assert.deepEqual(rows(table), catalogueRows());
    const svc = await startService();
    try {
      const doc = await svc.request('GET', '/api/openapi.json');
      assert.equal(doc.status, 200);
      assert.equal(doc.body.openapi, '3.1.0');
      assert.deepEqual(rows(doc.body.info.description), catalogueRows());
    } finally {
      await svc.close();
    }
  });

  it('tells the operator what to do in the hint of auth errors', () => {
    assert.match(Errors.SETUP_REQUIRED().message, /POST \/api\/auth\/setup/);
    assert.match(Errors.UNAUTHORIZED({ hint: 'log in first' }).message, /log in first/);
  });
});
