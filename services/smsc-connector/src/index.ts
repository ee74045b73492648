export {
  type BindSettings,
  loadSmscConnectorConfig,
  type SmscConnectorConfig,
  smscConnectorSettings,
} from './config.js';
export { type SmscConnector, startSmscConnector } from './service.js';
