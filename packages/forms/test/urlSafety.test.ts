import { describe, expect, test } from 'vitest';

import { checkUrl } from '../src/index.ts';

describe('checkUrl', () => {
  test('offers http and https, with the host name to show and the address to open', () => {
    expect(checkUrl('https://auth.example.com/connect?state=abc#top')).toEqual({
      ok: true,
      href: 'https://auth.example.com/connect?state=abc#top',
      hostname: 'auth.example.com',
    });
    expect(checkUrl('http://127.0.0.1:8080/x')).toMatchObject({ ok: true, hostname: '127.0.0.1' });
  });

  test('shows an internationalised domain in punycode, which cannot pass for another', () => {
    expect(checkUrl('https://pаypal.com/')).toMatchObject({
      ok: true,
      hostname: 'xn--pypal-4ve.com',
    });
  });

  test.each([
    ['javascript:alert(1)', 'Only http and https links can be opened; this one is javascript.'],
    ['data:text/html,<p>hi</p>', 'Only http and https links can be opened; this one is data.'],
    ['file:///etc/passwd', 'Only http and https links can be opened; this one is file.'],
    ['/relative/path', 'The link is not a valid absolute URL.'],
    ['', 'The link is not a valid absolute URL.'],
  ])('refuses %s', (url, reason) => {
    expect(checkUrl(url)).toEqual({ ok: false, reason });
  });

  test.each([
    'https://user:pass@example.com/',
    'https://paypal.com@evil.example/',
    'https://:x@a.b/',
  ])('refuses credentials, the way a link passes for another domain: %s', (url) => {
    expect(checkUrl(url)).toEqual({
      ok: false,
      reason: 'The link carries a user name or password, which can disguise where it really goes.',
    });
  });
});
