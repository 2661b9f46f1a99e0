import type { TaskloomModule } from '../kernel/registry.js';
import { localAuth } from './auth/local/index.js';
import { jsonStorage } from './storage/json/index.js';
import { postgresStorage } from './storage/postgres/index.js';
import { mongodbStorage } from './storage/mongodb/index.js';
import { tablestoreOutput } from './output/tablestore/index.js';
import { aiProviders } from './ai/index.js';
import { playwrightBrowser } from './browser/playwright/index.js';
import { puppeteerBrowser } from './browser/puppeteer/index.js';
import { breeScheduler } from './scheduler/bree/index.js';

/** The providers that ship with taskloom. Third parties add theirs through TASKLOOM_MODULES. */
export const providers: TaskloomModule['providers'] = [jsonStorage, postgresStorage, mongodbStorage, localAuth, tablestoreOutput, ...aiProviders, playwrightBrowser, puppeteerBrowser, breeScheduler];
