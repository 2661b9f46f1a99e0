// Upload and download actions on the real service with real Chromium, on both engines: the page receives the task
// files (it shows their names, types, sizes and SHA-256), a download is kept as a capture of type `download`,
// served back byte-identical, and the run's ZIP holds every file of the run.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import yauzl from 'yauzl';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { downloadBytes } from '../../testing/browser/pages-server.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();
const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

/** Every entry of a ZIP, by name. */
function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error || !file) return reject(error);
      const entries = new Map<string, Buffer>();
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => { entries.set(entry.fileName, Buffer.concat(chunks)); file.readEntry(); });
        });
      });
      file.on('end', () => resolve(entries));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

for (const engine of ['playwright', 'puppeteer']) {
  describe(`upload and download actions (${engine})`, { skip: chromium.skip }, () => {
    let svc: TestService;
    let pages: PagesServer;
    let apiKey: string;
    const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
    const bytesOf = async (url: string) => {
      const response = await fetch(svc.baseUrl + url, { headers: { 'x-api-key': apiKey } });
      return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
    };

    before(async () => {
      pages = await startPagesServer();
      svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', BROWSER_ENGINE: engine, DOWNLOAD_MAX_BYTES: '100000' });
      ({ apiKey } = await setupAdmin(svc));
    });
    after(async () => {
      await svc?.close();
      await pages?.close();
    });

    it('uploads task files into a file input, keeps downloads as captures, and zips the run\'s files', async () => {
      const task = await api('POST', '/api/tasks', {
        body: {
          name: `files ${engine}`, mode: 'agent', url: `${pages.origin}/files.html`,
          actions: [
            { type: 'upload', selector: '#file', value: 'photo.png, notes.txt' },
            { type: 'wait_selector', selector: 'body[data-received="2"] #received' },
            { type: 'download', selector: '#download' },
            { type: 'download', selector: '#download-csv' },
            { type: 'screenshot' },
          ],
          extractionScript: 'return document.getElementById("received").textContent',
        },
      });
      assert.equal(task.status, 200, task.text);
      const id = task.body.id;
      const photo = crypto.randomBytes(5000);
      const notes = Buffer.from('notes for the form\n');
      for (const [name, bytes] of [['photo.png', photo], ['notes.txt', notes]] as const) {
        const put = await fetch(`${svc.baseUrl}/api/tasks/${id}/files/${name}`, { method: 'PUT', headers: { 'x-api-key': apiKey }, body: bytes as BodyInit });
        assert.equal(put.status, 200, await put.text());
      }

      const run = await api('POST', `/api/tasks/${id}/api`);
      assert.equal(run.body.status, 'success', run.text);
      // What the page received, as it reported it.
      assert.deepEqual(String(run.body.result.data).split('\n'), [
        `photo.png image/png 5000 ${sha256(photo)}`,
        `notes.txt text/plain ${notes.length} ${sha256(notes)}`,
      ]);

      const listed = await api('GET', `/api/data/captures?runId=${run.body.executionId}`);
      const downloads = listed.body.filter((c: { type: string }) => c.type === 'download');
      assert.deepEqual(downloads.map((c: any) => [c.fileName, c.size, c.contentType]).sort(), [
        ['report.bin', 70000, 'application/octet-stream'], ['table_data.csv', 300, 'text/csv'],
      ]);
      assert.deepEqual(run.body.result.captures.length, 3, 'two downloads and a screenshot');
      const report = downloads.find((c: any) => c.fileName === 'report.bin');
      const served = await bytesOf(report.url);
      assert.equal(served.status, 200);
      assert.ok(served.body.equals(downloadBytes(70000)), 'the download is served back byte-identical');
      assert.match(served.headers.get('content-disposition') ?? '', /attachment; filename="report.bin"/);

      const zip = await bytesOf(`/api/executions/${run.body.executionId}/files.zip`);
      assert.equal(zip.status, 200);
      assert.equal(zip.headers.get('content-type'), 'application/zip');
      const entries = await unzip(zip.body);
      assert.ok(entries.get('downloads/report.bin')?.equals(downloadBytes(70000)));
      assert.ok(entries.get('downloads/table_data.csv')?.equals(downloadBytes(300)));
      const shot = listed.body.find((c: { type: string }) => c.type === 'screenshot');
      assert.ok(entries.get(shot.name)?.equals((await bytesOf(shot.url)).body));
      assert.equal(entries.size, 3);
    });

    it('uploads and downloads inside a frame', async () => {
      const task = await api('POST', '/api/tasks', {
        body: {
          name: `files in a frame ${engine}`, mode: 'agent', url: `${pages.origin}/files-framed.html`,
          actions: [
            { type: 'upload', selector: '#file', value: 'notes.txt', frame: '#inner' },
            { type: 'wait_selector', selector: 'body[data-received="1"] #received', frame: '#inner' },
            { type: 'download', selector: '#download', frame: '#inner' },
          ],
          extractionScript: 'return document.querySelector("#inner").contentDocument.getElementById("received").textContent',
        },
      });
      assert.equal(task.status, 200, task.text);
      const notes = Buffer.from('framed notes\n');
      const put = await fetch(`${svc.baseUrl}/api/tasks/${task.body.id}/files/notes.txt`, { method: 'PUT', headers: { 'x-api-key': apiKey }, body: notes as BodyInit });
      assert.equal(put.status, 200, await put.text());
      const run = await api('POST', `/api/tasks/${task.body.id}/api`);
      assert.equal(run.body.status, 'success', run.text);
      assert.equal(run.body.result.data, `notes.txt text/plain ${notes.length} ${sha256(notes)}`);
      const listed = await api('GET', `/api/data/captures?runId=${run.body.executionId}`);
      assert.deepEqual(listed.body.filter((c: { type: string }) => c.type === 'download').map((c: any) => [c.fileName, c.size]), [['report.bin', 70000]]);
    });

    it('fails an upload naming a missing task file, and a download over DOWNLOAD_MAX_BYTES', async () => {
      const make = async (actions: unknown[]) => {
        const task = await api('POST', '/api/tasks', { body: { name: 'files fail', mode: 'agent', url: `${pages.origin}/files.html`, actions } });
        return (await api('POST', `/api/tasks/${task.body.id}/api`)).body;
      };
      const missing = await make([{ type: 'upload', selector: '#file', value: 'absent.pdf' }]);
      assert.equal(missing.status, 'error');
      assert.match(missing.result.error.message, /Action 1 \(upload\).*no file named "absent\.pdf"/);
      const tooBig = await make([{ type: 'javascript', value: 'document.getElementById("download").href = "/download?name=big.bin&bytes=150000"' }, { type: 'download', selector: '#download' }]);
      assert.equal(tooBig.status, 'error');
      assert.match(tooBig.result.error.message, /big\.bin is 150000 bytes; DOWNLOAD_MAX_BYTES allows 100000/);
    });
  });
}

describe('the files ZIP of an unknown execution', () => {
  it('answers 404 EXECUTION_NOT_FOUND', async () => {
    const svc = await startService();
    try {
      const { apiKey } = await setupAdmin(svc);
      const response = await svc.request('GET', '/api/executions/exec_nope/files.zip', { apiKey });
      assert.equal(response.status, 404);
      assert.equal(response.body.error, 'EXECUTION_NOT_FOUND');
    } finally {
      await svc.close();
    }
  });
});
