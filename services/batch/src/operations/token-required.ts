/** How batch operations word a missing account (401): the bearer token is what was missing. */
export const TOKEN_REQUIRED = 'access token required';
