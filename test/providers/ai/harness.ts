// Builds AI providers as the kernel does (through their definitions and a provider context), with a real
// outbound guard and client, for the contract suite and the chain tests.
import { inspect } from 'node:util';
import { loadConfig } from '../../../kernel/config.js';
import type { AiProvider, CompletionRequest } from '../../../kernel/contracts/ai.js';
import type { Logger } from '../../../kernel/contracts/logger.js';
import type { ProviderDefinition } from '../../../kernel/contracts/provider.js';
import { createOutboundClient, createOutboundGuard, type OutboundServices } from '../../../kernel/outbound/index.js';
import type { AiFixture } from '../../../testing/ai.contract.js';
import type { ChatStandIn } from '../../stand-ins/chat-server.js';

/** A logger that keeps every line as text, so tests can look for keys. */
export function recordingLogger(lines: string[] = []): Logger & { lines: string[] } {
  const record = (level: string) => (obj: unknown, msg?: string) => { lines.push(`${level} ${inspect(obj, { depth: 8 })} ${msg ?? ''}`); };
  const logger = {
    lines,
    fatal: record('fatal'), error: record('error'), warn: record('warn'),
    info: record('info'), debug: record('debug'), trace: record('trace'),
    child: () => logger,
  };
  return logger;
}

/** Outbound services; `allowPrivateNetworks: false` refuses the stand-ins' 127.0.0.1. */
export function outboundFor(allowPrivateNetworks = true): OutboundServices {
  const guard = createOutboundGuard({ allowPrivateNetworks });
  return { guard, client: createOutboundClient(guard) };
}

export async function createAi(definition: ProviderDefinition<'ai'>, outbound: OutboundServices, logger: Logger = recordingLogger()): Promise<AiProvider> {
  const config = loadConfig({ DATA_DIR: '/nonexistent', LOG_LEVEL: 'silent' });
  return definition.create({ config, logger, dataDir: config.dataDir, outbound, signal: new AbortController().signal });
}

/** Where nothing listens: port 9 (discard) on loopback is closed on any test machine. */
export const CLOSED_ORIGIN = 'http://127.0.0.1:9';

export interface FixtureSpec {
  definition: ProviderDefinition<'ai'>;
  start(): Promise<ChatStandIn>;
  model: string;
  key: string;
  /** The base URL to send for a stand-in (its `url`, or its origin for protocols that add their own path). */
  baseUrl(standIn: ChatStandIn): string;
  /** The same with the stand-in's origin swapped for CLOSED_ORIGIN. */
  closedBaseUrl: string;
}

/** A contract fixture for one provider and its stand-in. */
export function fixtureFactory(spec: FixtureSpec): () => Promise<AiFixture> {
  return async () => {
    const standIn = await spec.start();
    const outbound = outboundFor(true);
    const provider = await createAi(spec.definition, outbound);
    const request = (overrides: Partial<CompletionRequest> = {}): CompletionRequest => ({
      system: 'You answer tersely.', user: 'Say ok.', model: spec.model, apiKey: spec.key,
      baseUrl: spec.baseUrl(standIn), timeoutMs: 5000, ...overrides,
    });
    return {
      provider,
      key: spec.key,
      request,
      unreachable: () => request({ baseUrl: spec.closedBaseUrl }),
      standIn,
      async close() {
        await outbound.client.close();
        await standIn.close();
      },
    };
  };
}
