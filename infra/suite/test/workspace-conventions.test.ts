import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** What a newcomer relies on without reading code: names that match folders, one licence. */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const WORKSPACE_FOLDERS = ['packages', 'services', 'infra'];

const workspacePackages = WORKSPACE_FOLDERS.flatMap((folder) =>
  readdirSync(`${REPO}${folder}`, { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && existsSync(`${REPO}${folder}/${entry.name}/package.json`),
    )
    .map((entry) => `${folder}/${entry.name}`),
);

const manifest = (dir: string) =>
  JSON.parse(readFileSync(`${REPO}${dir}/package.json`, 'utf8')) as {
    name: string;
    license?: string;
    dependencies?: Record<string, string>;
  };

/** The TypeScript sources under `dir`, tests and generated code left out. */
function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /(?<!\.test)\.ts$/.test(entry.name))
    .map((entry) => `${entry.parentPath}/${entry.name}`)
    .filter((file) => !file.includes('/generated/'));
}

const infraPackages = workspacePackages
  .filter((dir) => dir.startsWith('infra/'))
  .map((dir) => manifest(dir).name);

describe('workspace conventions', () => {
  it('when the workspace is listed, then it finds the services and libraries', () => {
    expect(workspacePackages).toEqual(expect.arrayContaining(['services/sms', 'packages/db']));
  });

  it.each(workspacePackages)(
    'when %s is read, then its package name is @msg/<its folder>',
    (dir) => {
      expect(manifest(dir).name).toBe(`@msg/${dir.split('/')[1]}`);
    },
  );

  it.each(['.', 'bench', ...workspacePackages])(
    'when %s/package.json is read, then it states the Apache-2.0 licence',
    (dir) => {
      expect(manifest(dir).license).toBe('Apache-2.0');
    },
  );

  it.each(workspacePackages.filter((dir) => dir.startsWith('packages/')))(
    'when %s/package.json is read, then none of its dependencies is an infra/ package',
    (dir) => {
      // infra/ is the platform's tooling (brokers, simulators); a library's users must not get
      // it. A package's own tests may use it (devDependencies), as the bus's restart test does.
      const dependencies = Object.keys(manifest(dir).dependencies ?? {});
      expect(dependencies.filter((name) => infraPackages.includes(name))).toEqual([]);
    },
  );

  it('when the services are read, then only @msg/sms-submit builds or writes an sms.outbound.v1 event', () => {
    // One SMS submission path (issue 24): a sender that wrote the event itself would skip the
    // opt-out, prepaid and refund order. A service still names the topic to create it; contracts
    // defines the event.
    const owners = ['packages/sms-submit', 'packages/contracts'];
    const writers = workspacePackages
      .filter((dir) => !owners.includes(dir) && !dir.startsWith('infra/'))
      .flatMap((dir) => sourceFiles(`${REPO}${dir}/src`))
      .filter((file) => {
        const text = readFileSync(file, 'utf8');
        return (
          text.includes('SMS_OUTBOUND_EVENT') ||
          /(enqueueOutbox|outboxInsert)\([^)]*Topics\.smsOutbound/.test(text)
        );
      })
      .map((file) => file.slice(REPO.length));
    expect(writers).toEqual([]);
  });

  it('when the repository root is listed, then the LICENSE file holds the Apache License 2.0', () => {
    expect(readFileSync(`${REPO}LICENSE`, 'utf8')).toMatch(
      /Apache License\s+Version 2\.0, January 2004/,
    );
  });
});
