import { describe, expect, it } from 'vitest';
import {
  checkSenderPermission,
  lookalikeKey,
  NO_PROTECTED_NAMES,
  protectedNames,
} from './sender-permission.js';

const banks = protectedNames(['BankID', 'Swedbank', 'Polisen']);
const check = (sender: string, registered: string[] = [], names = banks) =>
  checkSenderPermission({ sender, registered, protectedNames: names });

describe('checkSenderPermission: an account with registered alphanumeric sender ids', () => {
  it('when it sends as a registered id, in any case, then it is allowed', () => {
    expect(check('ACME', ['ACME'])).toEqual({ ok: true, type: 'alphanumeric' });
    expect(check('acme', ['ACME'])).toEqual({ ok: true, type: 'alphanumeric' });
    expect(check('Åsa Öhlund', ['åsa öhlund'])).toEqual({ ok: true, type: 'alphanumeric' });
  });

  it('when it sends as another name (issue 23: ACME sent as BANKID), then not_registered', () => {
    expect(check('BANKID', ['ACME'], NO_PROTECTED_NAMES)).toMatchObject({
      ok: false,
      reason: 'not_registered',
    });
    expect(check('ACME Shop', ['ACME'])).toMatchObject({ ok: false, reason: 'not_registered' });
  });

  it('when a protected name is registered to it, then it may use that name', () => {
    expect(check('BankID', ['BankID'])).toEqual({ ok: true, type: 'alphanumeric' });
    expect(check('BANKID', ['BankID'])).toEqual({ ok: true, type: 'alphanumeric' });
  });

  it('when it registered only a look-alike of a protected name, then the name itself stays refused', () => {
    expect(check('BankID', ['B4NKID'])).toMatchObject({ ok: false, reason: 'not_registered' });
  });
});

describe('checkSenderPermission: an account without registered alphanumeric ids', () => {
  it('when it sends as a name of its choice, then it is allowed', () => {
    expect(check('Acme')).toEqual({ ok: true, type: 'alphanumeric' });
    // Only numbers registered: alphanumerics are still free.
    expect(check('Acme', ['+46701234567'])).toEqual({ ok: true, type: 'alphanumeric' });
  });

  it.each([
    'BankID',
    'BANKID',
    'bankid',
    'Bank ID',
    'BANK-ID',
    'Bank.ID',
    'B4NKID',
    'BANK1D',
    'BANKlD',
    'SW3DBANK',
    'P0LISEN',
  ])('when it sends as %j, a protected name or a look-alike, then protected', (sender) => {
    expect(check(sender)).toMatchObject({ ok: false, reason: 'protected' });
  });

  it('when the protected list is empty, then every well-formed name is allowed', () => {
    expect(check('BANKID', [], NO_PROTECTED_NAMES)).toEqual({ ok: true, type: 'alphanumeric' });
  });
});

describe('checkSenderPermission: numeric senders', () => {
  it('when a number or shortcode is registered to the account, then it is allowed', () => {
    expect(check('+46701234567', ['+46701234567'])).toEqual({ ok: true, type: 'international' });
    expect(check('72000', ['ACME', '72000'])).toEqual({ ok: true, type: 'shortcode' });
  });

  it('when it is not, whatever else is registered, then not_registered', () => {
    expect(check('+46701234567')).toMatchObject({ ok: false, reason: 'not_registered' });
    expect(check('+46701234567', ['ACME', '+46701234568'])).toMatchObject({
      ok: false,
      reason: 'not_registered',
    });
    expect(check('72000')).toMatchObject({ ok: false, reason: 'not_registered' });
  });
});

describe('checkSenderPermission: form first', () => {
  it.each([
    ['', 'empty'],
    ['Acme!', 'alphanumeric_characters'],
    ['ABCDEFGHIJKL', 'alphanumeric_too_long'],
    ['12', 'shortcode_too_short'],
    ['+46701', 'international_not_e164'],
  ])('when the sender is %j, then its form problem %s, even when registered', (sender, reason) => {
    expect(check(sender, [sender])).toMatchObject({ ok: false, reason });
  });

  it('when refused, then the message says what to do, without repeating the sender', () => {
    const refused = check('BANKID', ['ACME']);
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.message).toMatch(/registered/);
      expect(refused.message).not.toContain('BANKID');
    }
  });
});

describe('lookalikeKey', () => {
  it('when names differ only in case, separators or look-alike characters, then they share a key', () => {
    const key = lookalikeKey('BankID');
    for (const name of ['BANKID', 'B4NK 1D', 'bank_id', 'Bank&ID', 'BANKlD', 'BÅNKID']) {
      expect(lookalikeKey(name), name).toBe(key);
    }
    expect(lookalikeKey('Blåbär')).toBe('biabar');
    expect(lookalikeKey('Fjæra')).toBe('fjaera');
  });

  it('when names differ in a letter, then their keys differ', () => {
    expect(lookalikeKey('BankID')).not.toBe(lookalikeKey('BankIE'));
  });
});
