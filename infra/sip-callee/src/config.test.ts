import { ConfigError } from '@msg/config';
import { describe, expect, it } from 'vitest';
import { loadSipCalleeConfig } from './config.js';

describe('loadSipCalleeConfig', () => {
  it('when nothing is set, then it listens on loopback, SIP 5060, control 8096, as a human', () => {
    expect(loadSipCalleeConfig({})).toMatchObject({
      HOST: '127.0.0.1',
      SIP_PORT: 5060,
      CONTROL_PORT: 8096,
      SIP_CALLEE_DEFAULT: 'human',
    });
  });

  it('when the default behaviour is unknown, then it is refused naming the values', () => {
    expect(() => loadSipCalleeConfig({ SIP_CALLEE_DEFAULT: 'robot' })).toThrow(
      /SIP_CALLEE_DEFAULT.*expected one of human, machine/s,
    );
  });

  it('when only a user name is set, then the password is asked for', () => {
    expect(() => loadSipCalleeConfig({ SIP_USERNAME: 'trunk' })).toThrow(ConfigError);
    expect(loadSipCalleeConfig({ SIP_USERNAME: 'trunk', SIP_PASSWORD: 'pw' })).toMatchObject({
      SIP_USERNAME: 'trunk',
      SIP_PASSWORD: 'pw',
    });
  });
});
