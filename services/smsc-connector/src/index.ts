export {
  type BindSettings,
  loadSmscConnectorConfig,
  type SmscConnectorConfig,
  smscConnectorSettings,
} from './config.js';
export { type SmscConnector, type SmscConnectorRuntime, startSmscConnector } from './service.js';
