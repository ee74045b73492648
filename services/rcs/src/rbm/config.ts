import { secret, url } from '@msg/config';
import { GOOGLE_TOKEN_URL, RBM_BASE_URL } from '@msg/rbm';

/** Where the RBM platform is and how its pushes are checked (merged into config.ts). */
export const rbmSettingsShape = {
  RCS_RBM_BASE_URL: url({ protocols: ['http:', 'https:'] })
    .default(RBM_BASE_URL)
    .describe(
      "RBM API root: Google's (regional ones too, e.g. https://europe-rcsbusinessmessaging.googleapis.com) or infra/rbm-simulator.",
    ),
  RCS_RBM_TOKEN_URL: url({ protocols: ['http:', 'https:'] })
    .default(GOOGLE_TOKEN_URL)
    .describe(
      "OAuth token endpoint agents' service-account JWTs are exchanged at (Google's; the simulator's /token in development).",
    ),
  RCS_RBM_CLIENT_TOKEN: secret()
    .optional()
    .describe(
      'Client token entered in the RBM console for the webhook: checks X-Goog-Signature of pushes and answers the set-up handshake; unset: pushes are refused (403).',
    ),
};

export interface RbmSettings {
  RCS_RBM_BASE_URL: string;
  RCS_RBM_TOKEN_URL: string;
  RCS_RBM_CLIENT_TOKEN?: string | undefined;
}
