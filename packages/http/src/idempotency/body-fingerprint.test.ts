import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BodyFingerprint } from './body-fingerprint.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('BodyFingerprint', () => {
  it('when a reader pipes the body through gunzip, then the fingerprint is the sha256 of the bytes as received', async () => {
    const body = gzipSync(
      Buffer.from(JSON.stringify({ recipients: Array(5000).fill('+46701234567') })),
    );
    const req = new PassThrough();
    const fingerprint = new BodyFingerprint(req);
    const inflated: Buffer[] = [];
    const reading = pipeline(req, createGunzip(), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) inflated.push(chunk);
    });
    for (let at = 0; at < body.length; at += 1000) req.write(body.subarray(at, at + 1000));
    req.end();
    await reading;

    expect(fingerprint.result()).toEqual({ fingerprint: sha256(body), bodyBytes: body.length });
    expect(Buffer.concat(inflated).toString()).toContain('+46701234567');
  });

  it('when the body has not been read to its end, then there is no fingerprint yet', () => {
    const req = new PassThrough();
    const fingerprint = new BodyFingerprint(req);
    req.write(Buffer.from('part'));
    expect(fingerprint.complete).toBe(false);
    expect(fingerprint.result()).toBeUndefined();
  });

  it('when nobody else reads the body, then readRest reads and hashes it', async () => {
    const req = new PassThrough();
    const fingerprint = new BodyFingerprint(req);
    req.end(Buffer.from('{"a":1}'));
    expect(await fingerprint.readRest(req, 100)).toBe('complete');
    expect(fingerprint.result()?.fingerprint).toBe(sha256(Buffer.from('{"a":1}')));
  });

  it('when the rest is longer than allowed, then readRest stops with tooLong', async () => {
    const req = new PassThrough();
    const fingerprint = new BodyFingerprint(req);
    req.write(Buffer.alloc(50));
    req.write(Buffer.alloc(60));
    expect(await fingerprint.readRest(req, 100)).toBe('tooLong');
    expect(fingerprint.complete).toBe(false);
  });
});
