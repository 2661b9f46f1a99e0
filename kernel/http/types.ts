import type { Scope } from '../contracts/records.js';
import type { ErrorDefinition } from '../errors.js';
import type { AuthPolicy, KernelServices, Principal } from '../services.js';
import type { RouteEntry } from './route-policy.js';

// Typed decorators and route options, declared once for every plugin.
declare module 'fastify' {
  interface FastifyInstance {
    services: KernelServices;
    /** Policy for routes that cannot declare one themselves (those of third-party plugins). */
    defaultAuthPolicy: AuthPolicy | undefined;
    /** Scope for those same routes. */
    defaultAccess: Scope | undefined;
    /** Every route with its auth policy, in registration order. */
    routeTable: RouteEntry[];
  }
  interface FastifyRequest {
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** Who may call the route; the route policy refuses routes without it. */
    auth?: AuthPolicy;
    /** The scope a caller needs (`read`, `run`, `write`, `admin`); every non-public route declares one. */
    access?: Scope;
    /** False where `apiKey`/`key` body fields are data, not credentials (setting the API key). */
    bodyCredentials?: boolean;
    /**
     * The catalogue errors the route's own work can answer with (TASK_NOT_FOUND, ...), for the API description.
     * Those of the route policy, of input validation and INTERNAL_ERROR are added for every route that has them.
     */
    errors?: readonly ErrorDefinition[];
    /** Set by a scope that reads a body of any media type: its routes never answer 415. */
    anyMediaType?: boolean;
  }
}

export {};
