// Test helpers shared by the services' component tests (a devDependency only).
// A broker of a run's own is startPrivateKafka of @msg/kafka (infra/kafka), imported from there:
// a package does not depend on infra/ packages, whose code is the platform's tooling.
export { accountState } from './account-state.js';
export {
  type CallbackReceiver,
  headerRecord,
  type ReceivedCallback,
  startCallbackReceiver,
} from './callback-receiver.js';
export { startTestRuntime, type TestRuntime } from './embedded-runtime.js';
export { eventually } from './eventually.js';
export { type FakeBilling, startFakeBilling } from './fake-billing.js';
export {
  buildJsmppSmsc,
  type JsmppSmsc,
  type JsmppSmscOptions,
  type JsmppSubmit,
  jsmppSmscMissing,
  startJsmppSmsc,
} from './jsmpp-smsc.js';
export { deadUrl, type LocalServer, listenLocal } from './local-server.js';
export { type MetricSource, metricTotal } from './metric-total.js';
export { publishAccount, publishProtectedSenders } from './publish-account.js';
export { createScratchDatabase, type ScratchDatabase } from './scratch-database.js';
