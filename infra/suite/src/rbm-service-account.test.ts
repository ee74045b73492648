import { createPrivateKey, createPublicKey, createSign, createVerify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createServiceAccountKey } from './rbm-service-account.js';

describe('createServiceAccountKey', () => {
  it('when a key is made for an agent, then it is a service-account key file with an RSA 2048 key that signs', () => {
    const key = createServiceAccountKey('demo-agent');
    expect(key).toMatchObject({
      type: 'service_account',
      client_email: 'demo-agent@rbm-simulator.iam.gserviceaccount.com',
      private_key: expect.stringContaining('-----BEGIN PRIVATE KEY-----'),
      token_uri: 'https://oauth2.googleapis.com/token',
    });
    const privateKey = createPrivateKey(key.private_key);
    expect(privateKey.asymmetricKeyType).toBe('rsa');
    expect(privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    // RS256, as google-auth-library signs the JWT assertion.
    const signature = createSign('RSA-SHA256').update('assertion').sign(privateKey);
    const verified = createVerify('RSA-SHA256')
      .update('assertion')
      .verify(createPublicKey(privateKey), signature);
    expect(verified).toBe(true);
  });

  it('when the agent id has characters an email cannot hold, then the email is still an address', () => {
    const key = createServiceAccountKey('brands/Acme.Agent@rbm');
    expect(key.client_email).toMatch(/^[a-z0-9-]+@rbm-simulator\.iam\.gserviceaccount\.com$/);
  });

  it('when two keys are made, then they differ', () => {
    expect(createServiceAccountKey('a').private_key).not.toBe(
      createServiceAccountKey('a').private_key,
    );
  });
});
