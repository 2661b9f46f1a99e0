import type { TaskloomModule } from '../kernel/registry.js';
import { openapiPlugin } from './openapi/index.js';
import { healthPlugin } from './health/index.js';
import { authPlugin } from './auth/index.js';

/** The HTTP plugins that ship with taskloom, mounted in this order (OpenAPI first, to see every route). */
export const plugins: TaskloomModule['plugins'] = [openapiPlugin, healthPlugin, authPlugin];
