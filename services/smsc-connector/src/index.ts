export {
  type BindSettings,
  loadSmscConnectorConfig,
  type SmscConnectorConfig,
  smscConnectorSettings,
} from './config.js';
export { type SmscConnector, smscConnectorService, startSmscConnector } from './service.js';
