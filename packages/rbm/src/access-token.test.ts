import { describe, expect, it } from 'vitest';
import { parseServiceAccountKey } from './access-token.js';

const PEM = '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n';

describe('parseServiceAccountKey', () => {
  it('keeps client_email and private_key of a key file, given parsed or as text', () => {
    const file = {
      type: 'service_account',
      project_id: 'p',
      client_email: 'a@p.iam.gserviceaccount.com',
      private_key: PEM,
    };
    expect(parseServiceAccountKey(file)).toEqual({
      client_email: file.client_email,
      private_key: PEM,
    });
    expect(parseServiceAccountKey(JSON.stringify(file))).toEqual({
      client_email: file.client_email,
      private_key: PEM,
    });
  });

  it.each([
    ['not JSON', 'nope', 'expected a JSON object'],
    ['no email', { private_key: PEM }, 'client_email'],
    ['no PEM', { client_email: 'a@b', private_key: 'secret' }, 'private_key'],
  ])('refuses %s naming the field', (_name, input, field) => {
    expect(() => parseServiceAccountKey(input)).toThrow(field);
  });
});
