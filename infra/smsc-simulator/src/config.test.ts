import { ConfigError } from '@msg/config';
import { describe, expect, it } from 'vitest';
import { loadSmscSimulatorConfig } from './config.js';

describe('loadSmscSimulatorConfig', () => {
  it('when nothing is set, then the documented defaults apply', () => {
    expect(loadSmscSimulatorConfig({})).toEqual({
      SMSC_PORT: 2775,
      SMSC_HOST: '127.0.0.1',
      SMSC_CREDENTIALS: [{ systemId: 'smsc', password: 'smsc' }],
      CONTROL_PORT: 2776,
      RECEIPT_DELAY_MS: 500,
      RULES: [{ prefix: '*', outcome: 'DELIVRD' }],
      MAX_RECORDED_SUBMITS: 100_000,
      LOG_LEVEL: 'info',
    });
  });

  it('when rules, credentials and a throttle are set, then they are parsed', () => {
    const config = loadSmscSimulatorConfig({
      SMSC_CREDENTIALS: 'a:x,b:y:z',
      RULES: '+4670000=UNDELIV,*=DELIVRD',
      THROTTLE_PER_SECOND: '50',
    });
    expect(config.SMSC_CREDENTIALS).toEqual([
      { systemId: 'a', password: 'x' },
      { systemId: 'b', password: 'y:z' },
    ]);
    expect(config.RULES[0]).toEqual({ prefix: '+4670000', outcome: 'UNDELIV' });
    expect(config.THROTTLE_PER_SECOND).toBe(50);
  });

  it('when several values are wrong, then every problem is named at once', () => {
    const load = () =>
      loadSmscSimulatorConfig({ RULES: '+46=LOST', SMSC_CREDENTIALS: 'nocolon', SMSC_PORT: 'x' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/RULES[\s\S]*SMSC_CREDENTIALS|SMSC_CREDENTIALS[\s\S]*RULES/);
    expect(load).toThrow(/SMSC_PORT/);
  });
});
