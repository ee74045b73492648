import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from './config-error.js';
import { csv, durationMs, port, secret, url } from './fields.js';
import { exitOnConfigError, loadConfig } from './load-config.js';

const schema = z.object({
  PORT: port(8080),
  UPSTREAM_URL: url(),
  TIMEOUT: durationMs('5s'),
  BROKERS: csv().optional(),
});

function problemsOf(load: () => unknown): readonly string[] {
  try {
    load();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('when every variable is valid, then a typed object is returned', () => {
    const config = loadConfig(schema, {
      PORT: '3000',
      UPSTREAM_URL: 'http://x',
      BROKERS: 'a:1,b:2',
    });
    expect(config).toEqual({
      PORT: 3000,
      UPSTREAM_URL: 'http://x',
      TIMEOUT: 5000,
      BROKERS: ['a:1', 'b:2'],
    });
  });

  it('when variables are unknown to the schema, then they are left out', () => {
    const config = loadConfig(schema, { UPSTREAM_URL: 'http://x', PATH: '/bin' });
    expect(Object.keys(config)).toEqual(['PORT', 'UPSTREAM_URL', 'TIMEOUT']);
  });

  it('when several variables are wrong, then all are reported at once, each with name, rule and value', () => {
    const problems = problemsOf(() =>
      loadConfig(schema, { PORT: 'abc', TIMEOUT: '5 minutes', BROKERS: ',' }),
    );
    expect(problems).toEqual([
      'PORT: expected an integer between 0 and 65535, got "abc"',
      'UPSTREAM_URL: required, not set',
      'TIMEOUT: expected a duration such as 500ms, 5s, 2m, 1h or a number of milliseconds, got "5 minutes"',
      'BROKERS: expected a comma-separated list with at least one entry, got ","',
    ]);
  });

  it('when problems are found, then the error message lists them all', () => {
    expect(() => loadConfig(schema, { PORT: '70000' })).toThrow(
      'Invalid configuration (2 problems):\n  PORT: expected an integer between 0 and 65535, got "70000"\n  UPSTREAM_URL: required, not set',
    );
  });

  it('when a variable is set but empty, then it counts as unset', () => {
    expect(loadConfig(schema, { PORT: '', UPSTREAM_URL: 'http://x' }).PORT).toBe(8080);
    expect(problemsOf(() => loadConfig(schema, { UPSTREAM_URL: '' }))).toEqual([
      'UPSTREAM_URL: required, is empty',
    ]);
  });

  it('when a secret or a sensitively named variable is wrong, then its value is not printed', () => {
    const strict = z.object({
      SIGNING_KEY: secret().pipe(z.string().min(32, 'expected at least 32 characters')),
      DB_PASSWORD: port(),
    });
    const problems = problemsOf(() =>
      loadConfig(strict, { SIGNING_KEY: 'short1', DB_PASSWORD: 'hunter2' }),
    );
    expect(problems).toEqual([
      'SIGNING_KEY: expected at least 32 characters, got a value (hidden)',
      'DB_PASSWORD: expected an integer between 0 and 65535, got a value (hidden)',
    ]);
  });

  it('when an invalid URL carries credentials, then they are masked in the message', () => {
    const [problem] = problemsOf(() => loadConfig(schema, { UPSTREAM_URL: 'x://user:pw@' }));
    expect(problem).toBe('UPSTREAM_URL: expected an absolute URL, got "x://***@"');
  });

  it('when a wrong value is long, then only its start is printed', () => {
    const [problem] = problemsOf(() => loadConfig(schema, { UPSTREAM_URL: 'y'.repeat(100) }));
    expect(problem).toBe(
      `UPSTREAM_URL: expected an absolute URL, got "${'y'.repeat(60)}"… (100 characters)`,
    );
  });

  it('when a secret is given a default, then the schema is refused before reading anything', () => {
    const bad = z.object({ TOKEN: secret().prefault('changeme') });
    expect(() => loadConfig(bad, { TOKEN: 'x' })).toThrow(
      'TOKEN is a secret and must not have a default',
    );
  });

  it('when a fragment is spread instead of its shape, then the mistake is named', () => {
    const fragment = z.object({ PORT: port() });
    expect(() => loadConfig(z.object({ ...fragment }), {})).toThrow(/spread a fragment's \.shape/);
  });

  it('when loaded, then the result is frozen all the way down', () => {
    const config = loadConfig(schema, { UPSTREAM_URL: 'http://x', BROKERS: 'a:1' });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.BROKERS)).toBe(true);
    expect(() => config.BROKERS?.push('b:2')).toThrow(TypeError);
  });

  it('when no environment is passed, then process.env is read', () => {
    const name = 'MSG_CONFIG_TEST_PORT';
    process.env[name] = '4321';
    try {
      expect(loadConfig(z.object({ [name]: port() }))[name]).toBe(4321);
    } finally {
      delete process.env[name];
    }
  });
});

describe('exitOnConfigError', () => {
  class Exited extends Error {
    constructor(readonly code: number) {
      super(`exit ${code}`);
    }
  }

  function fakeIo() {
    const written: string[] = [];
    return {
      written,
      io: {
        stderr: { write: (text: string) => written.push(text) },
        exit: (code: number): never => {
          throw new Exited(code);
        },
      },
    };
  }

  it('when loading succeeds, then the config is returned and nothing is printed', () => {
    const { io, written } = fakeIo();
    expect(exitOnConfigError(() => loadConfig(schema, { UPSTREAM_URL: 'http://x' }), io).PORT).toBe(
      8080,
    );
    expect(written).toEqual([]);
  });

  it('when the config is invalid, then the problems go to stderr and the exit code is 1', () => {
    const { io, written } = fakeIo();
    expect(() => exitOnConfigError(() => loadConfig(schema, {}), io)).toThrow(new Exited(1));
    expect(written).toEqual([
      'Invalid configuration (1 problem):\n  UPSTREAM_URL: required, not set\n',
    ]);
  });

  it('when something other than a config problem is thrown, then it is rethrown untouched', () => {
    const { io, written } = fakeIo();
    const boom = new Error('boom');
    expect(() =>
      exitOnConfigError(() => {
        throw boom;
      }, io),
    ).toThrow(boom);
    expect(written).toEqual([]);
  });
});
