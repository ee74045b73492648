export { loadNumbersConfig, type NumbersConfig, numbersSettings } from './config.js';
export { importSnapshotDirectory } from './registry/importer.js';
export {
  migrateNumbers,
  type NumbersService,
  type NumbersServiceOptions,
  numbersService,
  startNumbersService,
} from './service.js';
