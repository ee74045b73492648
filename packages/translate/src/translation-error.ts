/** Why a translation failed; the voice service maps these to failure_code 5 (README). */
export type TranslationFailure =
  | 'bad_request' // 400: the provider refused the request (text, language pair, missing key)
  | 'forbidden' // 403: invalid API key or a banned client
  | 'rate_limited' // 429
  | 'unavailable' // 5xx, network error or an answer that is not the API's JSON
  | 'timeout'
  | 'unsupported_language'; // the provider does not list one of the two languages

export class TranslationError extends Error {
  override readonly name = 'TranslationError';

  constructor(
    readonly failure: TranslationFailure,
    message: string,
    /** The provider's HTTP status, when it answered. */
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
