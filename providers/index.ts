import type { TaskloomModule } from '../kernel/registry.js';
import { localAuth } from './auth/local/index.js';
import { jsonStorage } from './storage/json/index.js';
import { tablestoreOutput } from './output/tablestore/index.js';

/** The providers that ship with taskloom. Third parties add theirs through TASKLOOM_MODULES. */
export const providers: TaskloomModule['providers'] = [jsonStorage, localAuth, tablestoreOutput];
