import { OUTPUT_CONTRACT_VERSION } from '../../../kernel/contracts/output.js';
import { defineProvider } from '../../../kernel/contracts/provider.js';
import { createTablestoreTarget } from './target.js';

export { createTablestoreTarget, BATCH_SIZE } from './target.js';

/** Output provider `tablestore`: pushes rows to a Baserow instance (and lists its databases and tables). */
export const tablestoreOutput = defineProvider({
  capability: 'output',
  id: 'tablestore',
  contractVersion: OUTPUT_CONTRACT_VERSION,
  async create(context) {
    return createTablestoreTarget(context.outbound.client, {
      signal: context.signal,
      logger: context.logger.child({ provider: 'output/tablestore' }),
    });
  },
});
