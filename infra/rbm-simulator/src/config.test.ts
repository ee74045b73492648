import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@msg/config';
import { describe, expect, it } from 'vitest';
import { loadRbmSimulatorConfig } from './config.js';

const dir = mkdtempSync(join(tmpdir(), 'rbm-sim-'));
const keyFile = join(dir, 'key.json');
writeFileSync(keyFile, JSON.stringify({ client_email: 'a@b', private_key: 'PEM' }));

describe('loadRbmSimulatorConfig', () => {
  it('reads defaults around the required key file', () => {
    const config = loadRbmSimulatorConfig({ RBM_SERVICE_ACCOUNT_FILE: keyFile });
    expect(config).toMatchObject({
      PORT: 8095,
      HOST: '127.0.0.1',
      RBM_DELIVER_DELAY: 200,
      RBM_READ_DELAY: 500,
      RBM_PUSH_ATTEMPTS: 5,
    });
  });

  it('names a missing or unreadable key file and a bad webhook URL', () => {
    expect(() => loadRbmSimulatorConfig({})).toThrow(ConfigError);
    expect(() =>
      loadRbmSimulatorConfig({ RBM_SERVICE_ACCOUNT_FILE: join(dir, 'nope.json') }),
    ).toThrow(/RBM_SERVICE_ACCOUNT_FILE/);
    expect(() =>
      loadRbmSimulatorConfig({ RBM_SERVICE_ACCOUNT_FILE: keyFile, RBM_WEBHOOK_URL: 'ftp://x' }),
    ).toThrow(/RBM_WEBHOOK_URL/);
  });
});
