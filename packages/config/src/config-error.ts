/**
 * Thrown by loadConfig when the environment does not satisfy the schema. It carries every
 * problem at once, so an operator fixes a deployment in one round instead of one per restart.
 */
export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    const noun = problems.length === 1 ? 'problem' : 'problems';
    super(`Invalid configuration (${problems.length} ${noun}):\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
    this.problems = Object.freeze([...problems]);
  }
}
