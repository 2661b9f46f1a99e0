import type { TaskloomModule } from '../kernel/registry.js';
import { openapiPlugin } from './openapi/index.js';
import { healthPlugin } from './health/index.js';
import { metricsPlugin } from './metrics/index.js';
import { authPlugin } from './auth/index.js';
import { tasksPlugin } from './tasks/index.js';
import { settingsPlugin } from './settings/index.js';
import { credentialsPlugin } from './credentials/index.js';
import { dataPlugin } from './data/index.js';
import { executionsPlugin } from './executions/index.js';
import { retentionPlugin } from './retention/index.js';
import { runsPlugin } from './runs/index.js';
import { aiPlugin } from './ai/index.js';
import { schedulesPlugin } from './schedules/index.js';
import { webPlugin } from './web/index.js';
import { headfulPlugin } from './headful/index.js';
import { browserSessionsPlugin } from './browser-sessions/index.js';
import { inspectorPlugin } from './inspector/index.js';
import { portabilityPlugin } from './portability/index.js';

/** The HTTP plugins that ship with taskloom, mounted in this order (OpenAPI first, to see every route). */
export const plugins: TaskloomModule['plugins'] = [openapiPlugin, healthPlugin, metricsPlugin, authPlugin, tasksPlugin, settingsPlugin, credentialsPlugin, dataPlugin, executionsPlugin, retentionPlugin, runsPlugin, aiPlugin, webPlugin, headfulPlugin, browserSessionsPlugin, inspectorPlugin, schedulesPlugin, portabilityPlugin];
