import { describe, expect, it } from 'vitest';
import { ANY_TARGET, isClientUrl, MAX_CLIENT_URL_LENGTH } from './client-url.js';

describe('isClientUrl', () => {
  it.each([
    'https://example.com',
    'https://example.com/events?x=1&y=%20#frag',
    "https://example.com/a-b._~:@!$&'()*+,;=/%2F%aF",
    'HTTPS://Example.com/path',
    'https://xn--bcher-kva.example/%C3%A4',
    'https://example.com:8443/cb',
    'http://8.8.8.8/cb',
    'https://[2001:4860:4860::8888]/cb',
    `https://example.com/${'a'.repeat(MAX_CLIENT_URL_LENGTH - 'https://example.com/'.length)}`,
  ])('when the URL is %s, then it is accepted', (url) => {
    expect(isClientUrl(url)).toBe(true);
  });

  it.each([
    ['CR LF and a header', 'http://example.com/cb\r\nX-Evil: 1'],
    ['a space', 'http://example.com/a b'],
    ['a tab', 'http://example.com/\tcb'],
    ['a leading space', ' http://example.com/'],
    ['a trailing newline', 'http://example.com/\n'],
    ['a NUL', 'http://example.com/\u0000'],
    ['an escape (C0)', 'http://example.com/\u001b[31m'],
    ['DEL', 'http://example.com/\u007f'],
    ['a C1 control (NEL)', 'http://example.com/\u0085'],
    ['a C1 control (CSI)', 'http://example.com/\u009b'],
    ['a no-break space', 'http://example.com/\u00a0'],
    ['a right-to-left override', 'http://example.com/\u202egpj.exe'],
    ['a right-to-left override in the host', 'http://exa\u202emple.com/'],
    ['a zero-width space', 'http://example.com/\u200b'],
    ['a zero-width joiner', 'http://exam\u200dple.com/'],
    ['a byte order mark', '\ufeffhttp://example.com/'],
    ['U+FFFF', 'http://example.com/\uffff'],
    ['a lone surrogate', 'http://example.com/\ud800'],
    ['an emoji', 'http://example.com/\u{1f600}'],
    ['an IDN not in punycode', 'https://bücher.example/'],
    ['a non-ASCII path', 'https://example.com/ä'],
    ['a percent sign without two hex digits', 'https://example.com/%zz'],
    ['a percent sign at the end', 'https://example.com/%4'],
    ['a double quote', 'https://example.com/"x"'],
    ['angle brackets', 'https://example.com/<script>'],
    ['braces and a pipe', 'https://example.com/{a|b}'],
    ['a caret and a backtick', 'https://example.com/^`'],
    ['credentials', 'https://user:pass@example.com/cb'],
    ['a user name', 'https://user@example.com/cb'],
    ['another scheme', 'ftp://example.com/'],
    ['javascript', 'javascript:alert(1)'],
    ['no scheme', 'example.com/cb'],
    ['a relative path', '/cb'],
    ['no slashes', 'http:example.com'],
    ['backslashes', 'http:\\\\example.com'],
    ['no host', 'http:///cb'],
    ['a bad port', 'http://example.com:99999/'],
    ['empty', ''],
    ['too long', `https://example.com/${'a'.repeat(MAX_CLIENT_URL_LENGTH)}`],
  ])('when the URL has %s, then it is refused', (_case, url) => {
    expect(isClientUrl(url)).toBe(false);
    expect(isClientUrl(url, ANY_TARGET)).toBe(false);
  });

  const PRIVATE_SPELLINGS = [
    ['loopback', 'http://127.0.0.1:9/cb'],
    ['short loopback', 'http://127.1/cb'],
    ['decimal loopback', 'http://2130706433/cb'],
    ['private 10/8', 'http://10.0.0.1/cb'],
    ['private 172.16/12', 'https://172.16.5.4/cb'],
    ['private 192.168/16', 'http://192.168.1.1/cb'],
    ['metadata', 'http://169.254.169.254/latest/meta-data/'],
    ['metadata, decimal', 'http://2852039166/'],
    ['metadata, hex', 'http://0xa9fea9fe/'],
    ['metadata, dotted hex', 'http://0xa9.0xfe.0xa9.0xfe/'],
    ['metadata, octal', 'http://0251.0376.0251.0376/'],
    ['metadata, short', 'http://169.254.43518/'],
    ['metadata, IPv6-mapped dotted', 'http://[::ffff:169.254.169.254]/'],
    ['metadata, IPv6-mapped hex', 'http://[::ffff:a9fe:a9fe]/'],
    ['loopback, IPv6-mapped', 'http://[0:0:0:0:0:ffff:7f00:1]/'],
    ['this host', 'http://0.0.0.0/'],
    ['zero', 'http://0/'],
    ['IPv6 unspecified', 'http://[::]/'],
    ['IPv6 loopback', 'https://[::1]:8443/cb'],
    ['IPv6 link-local', 'http://[fe80::1]/'],
    ['IPv6 unique-local', 'http://[fd00::1]/'],
    ['localhost', 'http://localhost:3000/cb'],
    ['LOCALHOST', 'http://LOCALHOST/cb'],
    ['localhost with a trailing dot', 'http://localhost./cb'],
    ['a subdomain of localhost', 'http://app.localhost/cb'],
  ];

  it.each(PRIVATE_SPELLINGS)(
    'when the host is %s (%s) and private targets are not allowed, then it is refused',
    (_case, url) => {
      expect(isClientUrl(url)).toBe(false);
      expect(isClientUrl(url, { allowPrivateTargets: false })).toBe(false);
    },
  );

  it.each(PRIVATE_SPELLINGS)(
    'when the host is %s (%s) and private targets are allowed, then it is accepted',
    (_case, url) => {
      expect(isClientUrl(url, { allowPrivateTargets: true })).toBe(true);
    },
  );

  it('when a private host is one the operator trusts (allowed hosts), then it is accepted; others still are not', () => {
    const policy = {
      allowPrivateTargets: false,
      allowedHosts: ['127.0.0.1', 'Receiver.Localhost', '[::1]'],
    };
    expect(isClientUrl('http://127.0.0.1:9/cb', policy)).toBe(true);
    expect(isClientUrl('http://receiver.localhost/cb', policy)).toBe(true);
    expect(isClientUrl('http://[::1]:8080/cb', policy)).toBe(true);
    expect(isClientUrl('http://127.0.0.2/cb', policy)).toBe(false);
    expect(isClientUrl('http://169.254.169.254/', policy)).toBe(false);
  });

  it('when the host is a name that needs DNS, then it is accepted here and judged at delivery', () => {
    expect(isClientUrl('https://callbacks.internal.example/cb')).toBe(true);
    expect(isClientUrl('https://localhost.example.com/cb')).toBe(true);
  });
});
