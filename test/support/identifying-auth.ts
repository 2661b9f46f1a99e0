// An auth provider that offers `identify` (auth contract 1.1) on top of the local one, for tests: the header
// `x-test-identity` names the user when the request comes from loopback; `refuse` refuses it outright.
import { AUTH_CONTRACT_VERSION } from '../../kernel/contracts/auth.js';
import { defineProvider } from '../../kernel/contracts/provider.js';
import { Errors } from '../../kernel/errors.js';
import { createLocalAuth } from '../../providers/auth/local/index.js';

export const IDENTITY_HEADER = 'x-test-identity';

export const identifyingAuth = defineProvider({
  capability: 'auth',
  id: 'identify-test',
  contractVersion: AUTH_CONTRACT_VERSION,
  async create({ storage }) {
    const local = createLocalAuth(storage!);
    return {
      ...local,
      async identify({ headers, remoteAddress }) {
        const who = headers[IDENTITY_HEADER];
        if (typeof who !== 'string') return undefined;
        if (who === 'refuse' || !['127.0.0.1', '::ffff:127.0.0.1'].includes(remoteAddress)) throw Errors.UNAUTHORIZED({ hint: 'refused by identify' });
        return { id: `usr_${who}`, name: who, email: `${who}@example.com` };
      },
    };
  },
});
