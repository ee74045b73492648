import { ConfigError } from '@msg/config';
import { describe, expect, it } from 'vitest';
import { loadHlrSimulatorConfig } from './config.js';

describe('loadHlrSimulatorConfig', () => {
  it('when only HLR_CREDENTIALS is set, then the defaults apply', () => {
    expect(loadHlrSimulatorConfig({ HLR_CREDENTIALS: 'u:p' })).toMatchObject({
      PORT: 8090,
      HOST: '127.0.0.1',
      HLR_CREDENTIALS: 'u:p',
    });
  });

  it('when HLR_CREDENTIALS is missing or has no colon, then loading fails', () => {
    expect(() => loadHlrSimulatorConfig({})).toThrow(ConfigError);
    expect(() => loadHlrSimulatorConfig({ HLR_CREDENTIALS: 'nocolon' })).toThrow(ConfigError);
  });
});
