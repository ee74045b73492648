import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Topics } from '@msg/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_TOKEN, startTestAdmin } from './support.js';

let admin: Awaited<ReturnType<typeof startTestAdmin>>;
const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
const base = '/internal/v1/protected-senders';
const api = () => request(admin.app);
const name = (n: string) => `${base}/${encodeURIComponent(n)}`;

beforeAll(async () => {
  admin = await startTestAdmin();
}, 60_000);
afterAll(async () => {
  await admin?.stop();
});

/** The last list published on senders.protected.v1, once one with at least `version` is there. */
async function lastPublished(version: number) {
  return vi.waitFor(() => {
    const last = admin.protectedLists.at(-1);
    if (!last || last.version < version) throw new Error(`no list v${version} published yet`);
    return last;
  });
}

describe('protected sender names: operator API', () => {
  it('when nothing was protected yet, then the list is empty at version 0', async () => {
    const res = await api().get(base).set(auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ protectedSenders: [], total: 0, version: 0 });
  });

  it('when a name is protected, then 201, it is listed, and the whole list is published with a higher version', async () => {
    const res = await api().put(name('BankID')).set(auth);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ name: 'BankID', createdAt: expect.any(String) });
    const list = await api().get(base).set(auth);
    expect(list.body).toMatchObject({
      total: 1,
      version: 1,
      protectedSenders: [{ name: 'BankID' }],
    });
    expect(await lastPublished(1)).toMatchObject({ names: ['BankID'], version: 1 });
  });

  it('when the name or a look-alike is protected again, then 200 with the entry as it was, and nothing is published', async () => {
    const published = admin.protectedLists.length;
    for (const again of ['BankID', 'BANKID', 'B4NK ID', 'bank-id']) {
      const res = await api().put(name(again)).set(auth);
      expect(res.status, again).toBe(200);
      expect(res.body.name).toBe('BankID');
    }
    expect((await api().get(base).set(auth)).body.total).toBe(1);
    expect(admin.protectedLists).toHaveLength(published);
  });

  it.each([
    ['+46701234567', 'not_alphanumeric'],
    ['72000', 'not_alphanumeric'],
    ['Bank!', 'alphanumeric_characters'],
    ['Skatteverket', 'alphanumeric_too_long'],
    [' Bank', 'alphanumeric_space_at_edge'],
  ])('when the name is %j, then 400 naming path.name (%s)', async (bad, type) => {
    const res = await api().put(name(bad)).set(auth);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details).toEqual([expect.objectContaining({ loc: ['path', 'name'], type })]);
  });

  it('when the name is removed by a look-alike spelling, then 204, it is gone and the list is published without it; again, 404', async () => {
    await api().put(name('Swedbank')).set(auth).expect(201);
    const before = (await api().get(base).set(auth)).body.version as number;
    expect((await api().delete(name('bank id')).set(auth)).status).toBe(204);
    const after = await api().get(base).set(auth);
    expect(after.body).toMatchObject({ total: 1, version: before + 1 });
    expect(await lastPublished(before + 1)).toMatchObject({ names: ['Swedbank'] });
    const again = await api().delete(name('BankID')).set(auth);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('NOT_FOUND');
  });

  it('when names are protected at once, then every one is listed and each change was published with a higher version', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `Myndighet${String.fromCharCode(65 + i)}`);
    const from = admin.protectedLists.length;
    const answers = await Promise.all(names.map((n) => api().put(name(n)).set(auth)));
    expect(answers.map((a) => a.status)).toEqual(names.map(() => 201));
    const { version } = (await api().get(base).set(auth)).body as { version: number };
    const last = await lastPublished(version);
    expect(last.names).toEqual(expect.arrayContaining([...names, 'Swedbank']));
    // The topic is compacted, so a reader may skip a superseded list; what it does see only rises.
    const seen = admin.protectedLists.slice(from).map((list) => list.version);
    expect(seen.every((v, i) => i === 0 || v > (seen[i - 1] as number))).toBe(true);
    expect(seen.at(-1)).toBe(version);
    // Every change was queued for publishing, each with its own higher version.
    const { rows } = await admin.pool.query<{ version: number }>(
      `SELECT ("value"->'payload'->>'version')::int AS version FROM "admin"."outbox_event"
       WHERE "topic" = $1 ORDER BY "seq"`,
      [Topics.protectedSenders],
    );
    const queued = rows.map((r) => r.version).slice(-names.length);
    expect(queued).toEqual(names.map((_, i) => version - names.length + 1 + i));
  });

  it('when republished, then 202 and the same list is published again at its version', async () => {
    const current = (await api().get(base).set(auth)).body;
    const published = admin.protectedLists.length;
    const res = await api().post(`${base}/republish`).set(auth);
    expect(res.status).toBe(202);
    expect(res.body).toEqual(current);
    await vi.waitFor(() => expect(admin.protectedLists.length).toBe(published + 1));
    expect(admin.protectedLists.at(-1)?.version).toBe(current.version);
  });

  it('when the admin token is missing or wrong, then 401 and nothing changes', async () => {
    expect((await api().get(base)).status).toBe(401);
    expect((await api().put(name('Polisen')).set({ authorization: 'Bearer nope' })).status).toBe(
      401,
    );
    const names = (await api().get(base).set(auth)).body.protectedSenders.map(
      (e: { name: string }) => e.name,
    );
    expect(names).not.toContain('Polisen');
  });
});

describe('protected sender names: pnpm admin protected-senders', () => {
  const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
  let server: http.Server;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    server = http.createServer(admin.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    env = { ...process.env, ADMIN_URL: `http://127.0.0.1:${port}`, ADMIN_TOKEN };
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  const run = async (...args: string[]) => {
    const { stdout } = await promisify(execFile)('node', [cli, 'protected-senders', ...args], {
      env,
    });
    return JSON.parse(stdout);
  };

  it('when an operator adds, lists and removes a name, then the API has it and then does not', async () => {
    expect(await run('add', 'Polisen')).toEqual({ name: 'Polisen', createdAt: expect.any(String) });
    const listed = await run('list');
    expect(listed.protectedSenders.map((e: { name: string }) => e.name)).toContain('Polisen');
    expect(await run('remove', 'POLISEN')).toEqual({ ok: true });
    const names = (await api().get(base).set(auth)).body.protectedSenders.map(
      (e: { name: string }) => e.name,
    );
    expect(names).not.toContain('Polisen');
    expect(await run('republish')).toMatchObject({ total: names.length });
  });

  it('when the name is refused or the subcommand unknown, then the CLI exits 1 saying why', async () => {
    const refused = await run('add', '+46701234567').catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('400') });
    const unknown = await run('rename').catch((error: { code: number; stderr: string }) => error);
    expect(unknown).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('list, add, remove or republish'),
    });
  });
});
