export { UndeclaredTopicError } from './declared-bus.js';
export { type Deployment, loadDeployedConfig } from './deployed-config.js';
export { CliError, operatorApi, runCli } from './operator-cli.js';
export { repeatEvery } from './repeat-every.js';
export { type RunServiceOptions, runService } from './run-service.js';
export { type ServingOptions, type ServingService, serveService } from './serve-service.js';
export {
  type BaseServiceConfig,
  type DatabaseContext,
  type DatabaseServiceDefinition,
  type DatabaseSpec,
  defineService,
  type OutboxRelaySettings,
  type PlainServiceDefinition,
  type ServiceContext,
  type ServiceDefinition,
  type ServiceParts,
  type Started,
  type Stop,
} from './service-definition.js';
export {
  type ServiceDependencies,
  type StartedService,
  serviceRegistry,
  startService,
  startWithBackground,
} from './start-service.js';
export {
  type Consumer,
  KitDirectories,
  type KitDirectory,
  type TopicDeclarations,
} from './topic-declarations.js';
export { type DeclaredService, type PlatformTopics, topicGraph } from './topic-graph.js';
