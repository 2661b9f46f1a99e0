// Download captures' names (plugins/data/capture-names.ts): the site's file name made a blob name's safe tail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BLOB_NAME } from '../../kernel/contracts/blob.js';
import { parseName, safeFileName } from '../../plugins/data/capture-names.js';

describe('download capture names', () => {
  it('parses a download with its file name and media type, and keeps the other kinds as they were', () => {
    assert.deepEqual(parseName('exec_a_b_3.download.report.final.pdf'), {
      runId: 'exec_a_b', n: 3, ext: 'download', type: 'download', fileName: 'report.final.pdf', contentType: 'application/pdf',
    });
    assert.equal(parseName('exec_1_2.png')?.type, 'screenshot');
    assert.equal(parseName('exec_1_2.zip')?.type, 'trace');
    assert.equal(parseName('exec_1_2.download.'), undefined);
    assert.equal(parseName('exec_1_2.download..hidden'), undefined);
    assert.equal(parseName('exec_1_2.download.a/b'), undefined);
  });

  it('makes any suggested name safe: other characters become _, no leading dot, no folders, long names keep their extension', () => {
    assert.equal(safeFileName('table data (1).csv', 100), 'table_data__1_.csv');
    assert.equal(safeFileName('../../etc/passwd', 100), 'passwd');
    assert.equal(safeFileName('..\\evil.exe', 100), 'evil.exe');
    assert.equal(safeFileName('.bashrc', 100), 'bashrc');
    assert.equal(safeFileName('', 100), 'download');
    assert.equal(safeFileName('résumé.pdf', 100), 'r_sum_.pdf');
    const long = safeFileName(`${'x'.repeat(300)}.tar.gz`, 50);
    assert.equal(long.length, 50);
    assert.ok(long.endsWith('.gz'));
    assert.match(`exec_1_1.download.${long}`, BLOB_NAME);
  });
});
