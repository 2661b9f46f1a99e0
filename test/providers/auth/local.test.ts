import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { AUTH_CONTRACT_VERSION } from '../../../kernel/contracts/auth.js';
import { localAuth } from '../../../providers/auth/local/index.js';
import { openJsonStorage } from '../../../providers/storage/json/index.js';
import { authContract } from '../../../testing/auth.contract.js';
import { createTestProvider } from '../../../testing/create-test-provider.js';

/** The local provider as the registry creates it, over a json store on a fresh folder. */
async function localHarness() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'taskloom-auth-'));
  const storage = await openJsonStorage({ dir: dataDir });
  const created = await createTestProvider(localAuth, { dataDir, storage });
  return {
    auth: created.instance,
    storage,
    async cleanup() {
      await created.close();
      await storage.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

authContract('local', localHarness);

describe('local auth provider', () => {
  it('is the provider `local` of the auth capability, at the contract version', () => {
    assert.deepEqual([localAuth.capability, localAuth.id, localAuth.contractVersion], ['auth', 'local', AUTH_CONTRACT_VERSION]);
  });

  it('keeps its accounts and the key in the storage it is given: a second instance on it knows them', async () => {
    const first = await localHarness();
    try {
      await first.auth.setup({ name: 'Ada', email: 'Ada@Example.com', password: 'correct horse battery staple' });
      const key = await first.auth.setApiKey();
      const { token } = await first.auth.login('ada@example.com', 'correct horse battery staple');
      const second = await createTestProvider(localAuth, { dataDir: os.tmpdir(), storage: first.storage });
      assert.equal(await second.instance.isSetupRequired(), false);
      assert.equal(await second.instance.verifyApiKey(key), true);
      assert.equal((await second.instance.resolveSession(token))?.email, 'ada@example.com');
      assert.ok(!JSON.stringify(await first.storage.settings.get('auth.apiKey')).includes(key), 'the key is stored in the clear');
      await second.close();
    } finally {
      await first.cleanup();
    }
  });

  it('refuses to start without storage, saying so', async () => {
    await assert.rejects(createTestProvider(localAuth, { dataDir: os.tmpdir() }), /needs storage/);
  });
});
