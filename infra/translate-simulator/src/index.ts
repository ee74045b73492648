export {
  loadTranslateSimulatorConfig,
  type TranslateSimulatorConfig,
  translateSimulatorConfigSchema,
} from './config.js';
export { LANGUAGE_NAMES } from './languages.js';
export { markedRendering, translateWithPhrases } from './phrases.js';
export type { Fault, ReceivedRequest } from './simulator-state.js';
export {
  startTranslateSimulator,
  type TranslateSimulator,
  type TranslateSimulatorOptions,
} from './start-translate-simulator.js';
