import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bool, csv, durationMs, enumOf, int, logLevel, port, secret, url } from './fields.js';

/** Parses one field the way loadConfig does: the value as an environment string, or unset. */
function parse(field: z.ZodType, raw: string | undefined) {
  const result = z.object({ X: field }).safeParse({ X: raw });
  return result.success
    ? { ok: true, value: result.data.X }
    : { ok: false, message: result.error.issues[0]?.message };
}

describe('port', () => {
  it.each([
    ['0', 0],
    ['1', 1],
    ['8080', 8080],
    ['65535', 65535],
  ])('when the value is %s, then it is the number %d', (raw, value) => {
    expect(parse(port(), raw)).toEqual({ ok: true, value });
  });

  it.each(['65536', 'abc', '80.5', '1e3', ' 80', '-1', '0x50'])(
    'when the value is "%s", then the rule is reported',
    (raw) => {
      expect(parse(port(), raw)).toEqual({
        ok: false,
        message: 'expected an integer between 0 and 65535',
      });
    },
  );

  it('when unset with a default, then the default is used', () => {
    expect(parse(port(3000), undefined)).toEqual({ ok: true, value: 3000 });
  });

  it('when unset without a default, then it fails', () => {
    expect(parse(port(), undefined).ok).toBe(false);
  });

  it('when the default itself is out of range, then declaring the field throws', () => {
    expect(() => port(70000)).toThrow(/default "70000" breaks its own rule/);
  });
});

describe('int', () => {
  it('when within the bounds, then the number is returned', () => {
    expect(parse(int({ min: 1, max: 10 }), '10')).toEqual({ ok: true, value: 10 });
    expect(parse(int({ min: -5 }), '-5')).toEqual({ ok: true, value: -5 });
  });

  it('when outside the bounds, then the message names the bounds', () => {
    expect(parse(int({ min: 1, max: 10 }), '11').message).toBe(
      'expected an integer between 1 and 10',
    );
    expect(parse(int({ min: 1 }), '0').message).toBe('expected an integer of at least 1');
    expect(parse(int({ max: 9 }), '10').message).toBe('expected an integer of at most 9');
    expect(parse(int(), '1.5').message).toBe('expected an integer');
  });

  it('when the value exceeds the safe integer range, then it is refused', () => {
    expect(parse(int(), '9007199254740993').ok).toBe(false);
  });

  it('when unset with a default, then the default is used', () => {
    expect(parse(int({ min: 0, default: 5 }), undefined)).toEqual({ ok: true, value: 5 });
  });
});

describe('url', () => {
  it('when the value is an absolute URL, then it is returned unchanged', () => {
    expect(parse(url(), 'https://example.com')).toEqual({ ok: true, value: 'https://example.com' });
  });

  it('when the value is not an absolute URL, then the rule is reported', () => {
    expect(parse(url(), 'example.com/path')).toEqual({
      ok: false,
      message: 'expected an absolute URL',
    });
  });

  it('when the scheme is not one of the allowed, then the allowed schemes are named', () => {
    const field = url({ protocols: ['postgres:', 'postgresql:'] });
    expect(parse(field, 'postgresql://u@db:5432/app').ok).toBe(true);
    expect(parse(field, 'mysql://u@db/app')).toEqual({
      ok: false,
      message: 'expected an absolute URL with scheme postgres or postgresql',
    });
  });
});

describe('csv', () => {
  it('when the value is a comma list, then entries are trimmed and empty ones dropped', () => {
    expect(parse(csv(), ' a , b,,c, ')).toEqual({ ok: true, value: ['a', 'b', 'c'] });
  });

  it('when the value holds only commas, then it is refused', () => {
    expect(parse(csv(), ' , ,').ok).toBe(false);
  });

  it('when unset with a default, then the default list is used', () => {
    expect(parse(csv(['x', 'y']), undefined)).toEqual({ ok: true, value: ['x', 'y'] });
  });
});

describe('bool', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ])('when the value is %s, then it is %s', (raw, value) => {
    expect(parse(bool(false), raw)).toEqual({ ok: true, value });
  });

  it.each(['yes', 'on', '2', 'tru'])('when the value is "%s", then it is refused', (raw) => {
    expect(parse(bool(false), raw)).toEqual({ ok: false, message: 'expected true, false, 1 or 0' });
  });

  it('when unset, then the default is used', () => {
    expect(parse(bool(true), undefined)).toEqual({ ok: true, value: true });
  });
});

describe('durationMs', () => {
  it.each([
    ['500ms', 500],
    ['5s', 5000],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['250', 250],
    ['0', 0],
  ])('when the value is %s, then it is %d milliseconds', (raw, value) => {
    expect(parse(durationMs(), raw)).toEqual({ ok: true, value });
  });

  it.each(['5 s', '1.5s', '-5s', '5d', 's', ''])(
    'when the value is "%s", then it is refused',
    (raw) => {
      expect(parse(durationMs(), raw).ok).toBe(false);
    },
  );

  it('when unset, then the default is used in either form', () => {
    expect(parse(durationMs('10s'), undefined)).toEqual({ ok: true, value: 10_000 });
    expect(parse(durationMs(750), undefined)).toEqual({ ok: true, value: 750 });
  });
});

describe('enumOf and logLevel', () => {
  it('when the value is one of the options, then it is returned', () => {
    expect(parse(enumOf(['a', 'b']), 'b')).toEqual({ ok: true, value: 'b' });
    expect(parse(logLevel(), 'debug')).toEqual({ ok: true, value: 'debug' });
  });

  it('when the value is not an option, then the options are listed', () => {
    expect(parse(enumOf(['a', 'b']), 'c')).toEqual({ ok: false, message: 'expected one of a, b' });
    expect(parse(logLevel(), 'trace').message).toBe(
      'expected one of error, warn, info, http, verbose, debug, silly',
    );
  });

  it('when unset with a default, then the default is used', () => {
    expect(parse(logLevel('warn'), undefined)).toEqual({ ok: true, value: 'warn' });
  });
});

describe('secret', () => {
  it('when set, then the value is returned as is', () => {
    expect(parse(secret(), ' s3cr3t ')).toEqual({ ok: true, value: ' s3cr3t ' });
  });

  it('when unset or empty, then it fails', () => {
    expect(parse(secret(), undefined).ok).toBe(false);
    expect(parse(secret(), '').ok).toBe(false);
  });

  it('when described again, then it is still marked secret', () => {
    expect(secret().describe('API signing key').meta()?.secret).toBe(true);
  });
});
