// `taskloom/contracts`: every capability's contract (types, version constants, defineProvider), the records and
// their TypeBox schemas. A re-export only: each contract imports nothing but the other contracts.
export * from './ai.js';
export * from './auth.js';
export * from './blob.js';
export * from './browser.js';
export * from './browser-pool.js';
export * from './captcha.js';
export * from './deliveries.js';
export * from './logger.js';
export * from './outbound.js';
export * from './output.js';
export * from './provider.js';
export * from './queue.js';
export * from './records.js';
export * from './scheduler.js';
export * from './storage.js';
