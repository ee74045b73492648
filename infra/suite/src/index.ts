export { loadSuiteConfig, type SuiteConfig, suiteSettings } from './config.js';
export { type RunningSuite, startSuite } from './suite.js';
