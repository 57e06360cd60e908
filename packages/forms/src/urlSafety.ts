/**
 * Whether a URL-mode request's `url` may be offered to the person at all. The server is someone
 * else's code: a `javascript:` or `data:` URL would run in the client's page, and credentials
 * (`https://user:pass@host`) are the classic way to make a link read as another domain
 * (`https://paypal.com@evil.example`). Only http(s) without credentials is offered.
 */

/** The verdict on a URL: what to show and open, or why it is refused. */
export type UrlCheck =
  | {
      ok: true;
      /** The URL as the browser will open it (parsed and normalised). */
      href: string;
      /** The host name the person is sent to, shown prominently (IDNs in punycode). */
      hostname: string;
    }
  | { ok: false; reason: string };

/** Checks a URL-mode request's `url`: http or https, absolute, no user name or password. */
export function checkUrl(url: string): UrlCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'The link is not a valid absolute URL.' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return {
      ok: false,
      reason: `Only http and https links can be opened; this one is ${parsed.protocol.slice(0, -1)}.`,
    };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return {
      ok: false,
      reason: 'The link carries a user name or password, which can disguise where it really goes.',
    };
  }
  if (parsed.hostname === '') return { ok: false, reason: 'The link names no host.' };
  return { ok: true, href: parsed.href, hostname: parsed.hostname };
}
