// taskloom-proxy-header-auth: AUTH_PROVIDER=proxy-header, for taskloom behind an SSO reverse proxy such as
// oauth2-proxy. A taskloom module: name it in TASKLOOM_MODULES.
import { AUTH_CONTRACT_VERSION, defineProvider } from 'taskloom/contracts';
import { Type } from 'typebox';
import { createProxyHeaderAuth } from './src/proxy-header-auth.js';
import { createTrustedPeers, trustedListProblem } from './src/trusted-peers.js';

const HEADER_NAME = '^[A-Za-z0-9-]+$';

export const proxyHeaderAuth = defineProvider({
  capability: 'auth',
  id: 'proxy-header',
  // 1.1: `identify` came with it.
  contractVersion: AUTH_CONTRACT_VERSION,
  configPrefix: 'PROXY_HEADER_',
  configSchema: Type.Object({
    /** PROXY_HEADER_TRUSTED: the proxy's addresses (IPs or CIDR ranges, comma-separated); the header counts from these only. */
    TRUSTED: Type.Refine(Type.String(), (value) => trustedListProblem(value) === undefined, (value) => trustedListProblem(value) ?? ''),
    /** PROXY_HEADER_NAME: the header naming the user by email. */
    NAME: Type.String({ default: 'X-Forwarded-Email', pattern: HEADER_NAME, description: 'an HTTP header name, e.g. X-Forwarded-Email' }),
    /** PROXY_HEADER_USER_NAME: the header with the user's display name (the email's local part without it). */
    USER_NAME: Type.String({ default: 'X-Forwarded-User', pattern: HEADER_NAME, description: 'an HTTP header name, e.g. X-Forwarded-User' }),
  }),
  async create({ config, storage, logger }) {
    if (!storage) throw new Error('the proxy-header auth provider needs the service storage (for the API key)');
    logger.info({ header: config.NAME, trusted: config.TRUSTED }, 'users are taken from the SSO proxy header');
    return createProxyHeaderAuth({
      trusted: createTrustedPeers(config.TRUSTED),
      header: config.NAME,
      nameHeader: config.USER_NAME,
      settings: storage.settings,
    });
  },
});

/** What TASKLOOM_MODULES loads. */
export default { providers: [proxyHeaderAuth] };
