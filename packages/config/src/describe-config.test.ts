import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeConfig } from './describe-config.js';
import { bool, csv, secret } from './fields.js';
import { databaseSettings, serviceSettings } from './settings.js';

describe('describeConfig', () => {
  it('when given a schema, then every setting is listed in order with description, default and flags', () => {
    const schema = z.object({
      ...serviceSettings.shape,
      ...databaseSettings.shape,
      API_SECRET: secret().describe('Key that signs access tokens'),
      DRY_RUN: bool(false).describe('Accept messages without sending them'),
      ALLOWED: csv(['a', 'b']),
      PLAIN: z.string().default('x'),
    });
    expect(describeConfig(schema)).toEqual([
      {
        name: 'PORT',
        description: 'TCP port the HTTP server listens on',
        default: '8080',
        required: false,
        secret: false,
      },
      {
        name: 'HOST',
        description: 'Address the HTTP server binds',
        default: '0.0.0.0',
        required: false,
        secret: false,
      },
      {
        name: 'LOG_LEVEL',
        description: 'Lowest log level written',
        default: 'info',
        required: false,
        secret: false,
      },
      {
        name: 'NODE_ENV',
        description: 'Runtime mode: development, test or production',
        default: 'production',
        required: false,
        secret: false,
      },
      {
        name: 'DATABASE_URL',
        description: 'Postgres connection URL; unset runs an embedded PostgreSQL server',
        default: undefined,
        required: false,
        secret: false,
      },
      {
        name: 'API_SECRET',
        description: 'Key that signs access tokens',
        default: undefined,
        required: true,
        secret: true,
      },
      {
        name: 'DRY_RUN',
        description: 'Accept messages without sending them',
        default: 'false',
        required: false,
        secret: false,
      },
      {
        name: 'ALLOWED',
        description: 'comma-separated list',
        default: 'a,b',
        required: false,
        secret: false,
      },
      { name: 'PLAIN', description: undefined, default: 'x', required: false, secret: false },
    ]);
  });
});
