import type { AuthPolicy, KernelServices, Principal } from '../services.js';
import type { RouteEntry } from './route-policy.js';

// Typed decorators and route options, declared once for every plugin.
declare module 'fastify' {
  interface FastifyInstance {
    services: KernelServices;
    /** Policy for routes that cannot declare one themselves (those of third-party plugins). */
    defaultAuthPolicy: AuthPolicy | undefined;
    /** Every route with its auth policy, in registration order. */
    routeTable: RouteEntry[];
  }
  interface FastifyRequest {
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** Who may call the route; the route policy refuses routes without it. */
    auth?: AuthPolicy;
    /** False where `apiKey`/`key` body fields are data, not credentials (setting the API key). */
    bodyCredentials?: boolean;
  }
}

export {};
