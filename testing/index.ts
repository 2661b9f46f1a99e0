// `taskloom/testing`: the contract suite of each capability, each a function taking a factory of
// fresh instances, and the few helpers a provider's own tests need. Every built-in provider runs these suites;
// a third-party provider runs the same one to show it meets the same bar. Run them with `node --test`.
export { storageContract, type StorageFactory, type StorageHarness } from './storage.contract.js';
export { at, makeCredential, makeExecution, makeSession, makeTask, makeUser } from './storage/harness.js';
export { authContract, type AuthFactory, type AuthHarness } from './auth.contract.js';
export { browserContract, chromiumOrSkip, type DriverFactory } from './browser.contract.js';
export { startCountingProxy, startPagesServer, type CountingProxy, type PagesServer } from './browser/pages-server.js';
export { aiContract, aiFailureOf, arrived, type AiFixture, type AiFixtureFactory, type ChatBehaviour, type RecordedChat } from './ai.contract.js';
export {
  outputContract, upstreamError, type OutputFailure, type OutputFixture, type OutputFixtureFactory, type OutputFixtureOptions,
} from './output.contract.js';
export { captchaContract, solveOnce, type CaptchaFixture } from './captcha.contract.js';
export { blobContract, type BlobHarness, type BlobHarnessFactory } from './blob.contract.js';
export { queueContract, type QueueFixture, type QueueFixtureFactory } from './queue.contract.js';
export { schedulerContract, type SchedulerFactory, type SchedulerFixture } from './scheduler.contract.js';
export { createTestProvider, type TestProvider, type TestProviderOptions } from './create-test-provider.js';
export { createRecordingLogger, silentLogger } from './loggers.js';
export { openTestStorage } from './open-test-storage.js';
