import { describe, expect, it } from 'vitest';
import { isClientUrl, MAX_CLIENT_URL_LENGTH } from './client-url.js';

describe('isClientUrl', () => {
  it.each([
    'http://127.0.0.1:9/cb',
    'https://example.com',
    'https://example.com/events?x=1&y=%20#frag',
    'HTTPS://Example.com/path',
    'https://[::1]:8443/cb',
    'https://bücher.example/ä',
    `https://example.com/${'a'.repeat(MAX_CLIENT_URL_LENGTH - 'https://example.com/'.length)}`,
  ])('when the URL is %s, then it is accepted', (url) => {
    expect(isClientUrl(url)).toBe(true);
  });

  it.each([
    ['CR LF and a header', 'http://127.0.0.1:9/cb\r\nX-Evil: 1'],
    ['a space', 'http://example.com/a b'],
    ['a tab', 'http://example.com/\tcb'],
    ['a leading space', ' http://example.com/'],
    ['a trailing newline', 'http://example.com/\n'],
    ['a NUL', 'http://example.com/\u0000'],
    ['a no-break space', 'http://example.com/\u00a0'],
    ['a lone surrogate', 'http://example.com/\ud800'],
    ['credentials', 'https://user:pass@example.com/cb'],
    ['a user name', 'https://user@example.com/cb'],
    ['another scheme', 'ftp://example.com/'],
    ['javascript', 'javascript:alert(1)'],
    ['no scheme', 'example.com/cb'],
    ['a relative path', '/cb'],
    ['no slashes', 'http:example.com'],
    ['backslashes', 'http:\\\\example.com'],
    ['no host', 'http:///cb'],
    ['an invalid host', 'http://exa mple.com/'],
    ['a bad port', 'http://example.com:99999/'],
    ['empty', ''],
    ['too long', `https://example.com/${'a'.repeat(MAX_CLIENT_URL_LENGTH)}`],
  ])('when the URL has %s, then it is refused', (_case, url) => {
    expect(isClientUrl(url)).toBe(false);
  });
});
