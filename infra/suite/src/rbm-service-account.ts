import { generateKeyPairSync, randomBytes } from 'node:crypto';

/** A Google service-account key file, as the RBM console hands it out (the members RBM uses). */
export interface ServiceAccountKeyFile {
  type: 'service_account';
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  client_id: string;
  token_uri: string;
}

/**
 * A fresh RSA key pair in the shape of a service-account key file, for the RBM simulator: it
 * issues tokens only for JWTs this key signs, and the rcs service stores the file as the agent's
 * credentials (as an operator stores the one Google issues). Made at every start: nothing real
 * is ever signed with it.
 */
export function createServiceAccountKey(agentId: string): ServiceAccountKeyFile {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  // An email local part: the agent id's letters and digits (RBM's own ids carry '@' and '.').
  const name =
    agentId
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, '-')
      .slice(0, 30) || 'agent';
  return {
    type: 'service_account',
    project_id: 'rbm-simulator',
    private_key_id: randomBytes(20).toString('hex'),
    private_key: privateKey,
    client_email: `${name}@rbm-simulator.iam.gserviceaccount.com`,
    client_id: BigInt(`0x${randomBytes(8).toString('hex')}`).toString(),
    // As in Google's files; the rcs service exchanges at RCS_RBM_TOKEN_URL (the simulator's).
    token_uri: 'https://oauth2.googleapis.com/token',
  };
}
