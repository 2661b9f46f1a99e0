import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../../../kernel/config.js';
import { createLogger } from '../../../kernel/logger.js';
import { diskBlobStore, openDiskBlobStore } from '../../../providers/blob/disk/index.js';
import { blobContract } from '../../../testing/blob.contract.js';
import { makeTempDir } from '../../support/service.js';

const logger = createLogger(loadConfig({ LOG_LEVEL: 'silent' }));

blobContract('disk', async () => {
  const dir = await makeTempDir();
  const open = () => openDiskBlobStore({ dir: path.join(dir, 'captures'), logger });
  const store = await open();
  return {
    store,
    openSecond: open,
    async cleanup() {
      await store.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
});

describe('blob store: disk', () => {
  it('keeps each blob as a file under DATA_DIR/captures, where captures always were', async () => {
    const dir = await makeTempDir();
    try {
      const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' });
      const store = await diskBlobStore.create({
        config: {}, logger, dataDir: config.dataDir, signal: new AbortController().signal,
        outbound: undefined as never,
      });
      await fs.writeFile(path.join(dir, 'captures', 'older_1.png'), 'written before the blob store');
      assert.deepEqual((await store.list()).map((b) => b.name), ['older_1.png']);
      await store.put('exec_1_1.png', Buffer.from('png'), { contentType: 'image/png' });
      assert.equal(await fs.readFile(path.join(dir, 'captures', 'exec_1_1.png'), 'utf8'), 'png');
      assert.deepEqual((await fs.readdir(path.join(dir, 'captures'))).sort(), ['exec_1_1.png', 'older_1.png']);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
