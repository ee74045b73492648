import { gaxios, JWT } from 'google-auth-library';

export const RBM_SCOPE = 'https://www.googleapis.com/auth/rcsbusinessmessaging';
/** google-auth-library always posts the JWT assertion here (and uses it as the `aud` claim). */
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

/** The two fields of a Google service-account key file that signing needs. */
export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
}

export interface AccessTokenSource {
  /** A bearer token, cached by the source until shortly before it expires. */
  token(): Promise<string>;
}

/**
 * Sends the token request to `tokenUrl` instead of Google's, so a simulator can issue tokens.
 * The assertion itself is unchanged (its `aud` stays Google's token URL).
 */
class RedirectingGaxios extends gaxios.Gaxios {
  constructor(private readonly tokenUrl: string) {
    super();
  }

  override request<T = unknown>(options: gaxios.GaxiosOptions): Promise<gaxios.GaxiosResponse<T>> {
    const url = String(options.url ?? '');
    return super.request<T>(
      url === GOOGLE_TOKEN_URL ? { ...options, url: this.tokenUrl } : options,
    );
  }
}

/**
 * Service-account JWT bearer flow (RFC 7523) through google-auth-library, which caches the token
 * and refreshes it 5 minutes before expiry (its eagerRefreshThresholdMillis).
 */
export function serviceAccountTokenSource(
  key: ServiceAccountKey,
  tokenUrl: string = GOOGLE_TOKEN_URL,
): AccessTokenSource {
  const jwt = new JWT({
    email: key.client_email,
    key: key.private_key,
    scopes: [RBM_SCOPE],
    ...(tokenUrl !== GOOGLE_TOKEN_URL && { transporter: new RedirectingGaxios(tokenUrl) }),
  });
  return {
    async token() {
      const { token } = await jwt.getAccessToken();
      if (!token) throw new Error('the token endpoint answered without an access_token');
      return token;
    },
  };
}

/**
 * Checks a stored or uploaded key file (the JSON the RBM console downloads) and returns the two
 * fields signing needs; throws TypeError naming the field otherwise.
 */
export function parseServiceAccountKey(json: unknown): ServiceAccountKey {
  const value = typeof json === 'string' ? safeJson(json) : json;
  if (typeof value !== 'object' || value === null) {
    throw new TypeError('service account key: expected a JSON object');
  }
  const { client_email, private_key } = value as Record<string, unknown>;
  if (typeof client_email !== 'string' || !client_email.includes('@')) {
    throw new TypeError('service account key: client_email must be an email address');
  }
  if (typeof private_key !== 'string' || !private_key.includes('PRIVATE KEY-----')) {
    throw new TypeError('service account key: private_key must be a PEM private key');
  }
  return { client_email, private_key };
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
