import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readSnapshotFiles } from './snapshot-files.js';

const SAMPLE = fileURLToPath(new URL('../../../../infra/numbers-registry/sample', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'numbers-files-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let copies = 0;
function sampleWith(file: string, content: string): string {
  copies += 1;
  const dir = join(scratch, String(copies));
  cpSync(SAMPLE, dir, { recursive: true });
  writeFileSync(join(dir, file), content);
  return dir;
}

describe('readSnapshotFiles', () => {
  it('when the sample is read, then its dates, providers, ranges and ports', async () => {
    const files = await readSnapshotFiles(SAMPLE);
    expect(files).toMatchObject({
      snapshotDate: '2026-11-21',
      validUntil: new Date('2026-11-22T04:00:00Z'),
      historySince: '2015-01-01',
    });
    expect(files.providers.find((p) => p.spid === '012')).toEqual({
      spid: '012',
      name: 'Lycamobile Sweden Ltd',
      brands: ['Lycamobile'],
      hostMcc: '240',
      hostMnc: '01',
      hostName: 'Telia',
    });
    expect(files.ports.filter((p) => p.number === '46702223344')).toHaveLength(4);
  });

  it('when imported as another date, then valid until the next day and another checksum', async () => {
    const original = await readSnapshotFiles(SAMPLE);
    const rebased = await readSnapshotFiles(SAMPLE, { snapshotDate: '2027-01-31' });
    expect(rebased.validUntil).toEqual(new Date('2027-02-01T00:00:00Z'));
    expect(rebased.checksum).not.toBe(original.checksum);
  });

  it.each([
    ['snapshot.json', '{"snapshot_date":"yesterday"}', /snapshot_date is not YYYY-MM-DD/],
    ['snapshot.json', '{"snapshot_date":"2026-11-21","valid_until":"soon"}', /valid_until/],
    [
      'providers.csv',
      'spid,name,brands,host_mcc,host_mnc,host_name\n001,Telia,,240,,\n',
      /providers\.csv:2: host_mcc, host_mnc and host_name go together/,
    ],
    ['providers.csv', 'spid,name\n001,Telia\n', /missing column\(s\) brands/],
    ['ranges.csv', 'prefix,holder_spid\n4670,999\n', /ranges\.csv:2: holder_spid 999/],
    [
      'ports.csv',
      'number,ported_at,donor_spid,recipient_spid\n0701234567,2020-01-01,001,007\n',
      /ports\.csv:2: number is not E\.164/,
    ],
    [
      'ports.csv',
      'number,ported_at,donor_spid,recipient_spid\n46701234567,2020-02-30x,001,007\n',
      /ports\.csv:2: ported_at/,
    ],
  ])(
    'when %s is %j, then the snapshot is refused naming the problem',
    async (file, content, error) => {
      await expect(readSnapshotFiles(sampleWith(file, content))).rejects.toThrow(error);
    },
  );
});
