import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eventually } from '@msg/testing';
import got from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSuite } from '../src/suite.js';
import { startEmbedded } from './platform.js';

const exec = promisify(execFile);
const RCS_CLI = fileURLToPath(new URL('../../../services/rcs/dist/cli.js', import.meta.url));
const ADMIN_CLI = fileURLToPath(new URL('../../../services/admin/dist/cli.js', import.meta.url));

/**
 * The operator CLIs as an operator types them: accounts by name, as `pnpm admin` prints them.
 * Issue 23 item 7: `pnpm rcs agents allow demo-agent acme` and `pnpm rcs fallback enable acme`
 * stored the name, and the account stayed refused (403).
 */
describe('operator CLIs naming accounts by name', () => {
  let suite: RunningSuite;
  const apiKey = `acme_${randomBytes(18).toString('base64url')}`;

  const cli = (script: string, env: Record<string, string>, ...args: string[]) =>
    exec(process.execPath, [script, ...args], { env: { ...process.env, ...env } }).then(
      ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
  const rcs = (...args: string[]) =>
    cli(
      RCS_CLI,
      { RCS_URL: suite.serviceUrls.rcs ?? '', RCS_ADMIN_TOKEN: suite.adminToken },
      ...args,
    );
  const admin = (...args: string[]) =>
    cli(ADMIN_CLI, { ADMIN_URL: suite.adminUrl, ADMIN_TOKEN: suite.adminToken }, ...args);
  const sendAsAcme = (extra: object = {}) =>
    got.post(`${suite.gatewayUrl}/rcs/v1/messages`, {
      headers: { 'x-client-id': 'acme', 'x-api-key': apiKey },
      json: {
        recipient: '+46701740605',
        agent_id: suite.demoRcsAgentId,
        message: { text: 'Hello' },
        dry_run: true,
        ...extra,
      },
      throwHttpErrors: false,
      retry: { limit: 0 },
      responseType: 'json',
    });

  beforeAll(async () => {
    suite = await startEmbedded();
    expect((await admin('create', 'acme', '--permissions', 'rcs,sms')).code).toBe(0);
    const key = await got
      .post(`${suite.adminUrl}/internal/v1/accounts/acme/api-keys`, {
        headers: { authorization: `Bearer ${suite.adminToken}` },
        json: { apiKey },
      })
      .json<{ id: string }>();
    expect(key.id).toEqual(expect.any(String));
    // The account reaches the rcs service over accounts.v1: the CLI finds it by name then.
    await eventually(
      async () => ((await rcs('fallback', 'show', 'acme')).code === 0 ? true : undefined),
      'the rcs service to know acme',
      30_000,
      200,
    );
  }, 240_000);

  afterAll(async () => {
    await suite?.stop();
  }, 60_000);

  it('when an agent is allowed to an account by name, then the account may send as it (202, not 403)', async () => {
    expect((await sendAsAcme()).statusCode).toBe(403);
    const allowed = await rcs('agents', 'allow', suite.demoRcsAgentId, 'acme');
    expect(allowed.code, allowed.stderr).toBe(0);
    const account = await got(`${suite.adminUrl}/internal/v1/accounts/acme`, {
      headers: { authorization: `Bearer ${suite.adminToken}` },
    }).json<{ id: string }>();
    expect(JSON.parse(allowed.stdout).accounts).toContain(account.id);
    const sent = await sendAsAcme();
    expect(sent.statusCode, JSON.stringify(sent.body)).toBe(202);
  });

  it('when SMS fallback is enabled by account name, then its sends may carry sms_fallback', async () => {
    const fallback = { sms_fallback: { sender: 'ACME', text: 'Your parcel is ready' } };
    expect((await sendAsAcme(fallback)).statusCode).toBe(400);
    const enabled = await rcs('fallback', 'enable', 'ACME');
    expect(enabled.code, enabled.stderr).toBe(0);
    expect(JSON.parse(enabled.stdout).sms_fallback).toBe(true);
    const sent = await sendAsAcme(fallback);
    expect(sent.statusCode, JSON.stringify(sent.body)).toBe(202);
  });

  it('when an account name is unknown, then the CLI refuses it naming the account and exits 1', async () => {
    for (const args of [
      ['agents', 'allow', suite.demoRcsAgentId, 'acme-typo'],
      ['fallback', 'enable', 'acme-typo'],
      ['agents', 'create', 'typo-agent', 'Typo', '--account', 'acme-typo'],
    ]) {
      const refused = await rcs(...args);
      expect(refused.code, args.join(' ')).toBe(1);
      expect(refused.stderr, args.join(' ')).toMatch(/acme-typo/);
    }
    const listed = await rcs('fallback', 'list');
    expect(listed.stdout).not.toContain('acme-typo');
  });

  it('when an agent is denied to an account by name, then the account is refused again (403)', async () => {
    const denied = await rcs('agents', 'deny', suite.demoRcsAgentId, 'acme');
    expect(denied.code, denied.stderr).toBe(0);
    expect((await sendAsAcme()).statusCode).toBe(403);
  });
});
