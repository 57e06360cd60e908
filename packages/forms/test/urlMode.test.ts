/**
 * URL mode in a real Chromium: the page never navigates or opens a window by itself, or on a
 * stray key, only on the Open button; it opens exactly the URL shown; it refuses URLs that
 * could run code or pass for another domain.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';

import { urlRequest } from './fixtures.ts';
import { problemsOf, render, result, settled, useHarness, summaryText } from './harness/harness.ts';

const harness = useHarness();

/** Every window the page's context opens and every navigation of the page itself. */
function watch(page: Page): { opened: string[]; navigated: string[] } {
  const seen = { opened: [] as string[], navigated: [] as string[] };
  page.context().on('page', (opened) => seen.opened.push(opened.url()));
  page.on('popup', (popup) => seen.opened.push(popup.url()));
  page.on('framenavigated', (frame) => seen.navigated.push(frame.url()));
  return seen;
}

function shadow(page: Page, selector: string) {
  return page.locator(`parley-elicitation >> ${selector}`);
}

describe('consent', () => {
  test('shows the message, the domain prominently and the full URL, as text, never a link', async () => {
    const page = await harness.newPage();
    await render(page, urlRequest('https://auth.example.com/connect?state=abc'));
    expect(await shadow(page, '[part~="message"]').textContent()).toBe('Connect your calendar');
    expect(await shadow(page, '[part~="domain"]').textContent()).toBe('auth.example.com');
    expect(await shadow(page, '[part~="url"]').textContent()).toContain(
      'https://auth.example.com/connect?state=abc',
    );
    expect(await page.getByRole('button', { name: 'Open auth.example.com' }).count()).toBe(1);
    expect(await page.locator('a').count()).toBe(0); // pierces the shadow root
    expect(await page.getByRole('link').count()).toBe(0);
  });

  test('nothing opens by itself or on a stray key; the Open button opens exactly the URL', async () => {
    const page = await harness.newPage();
    const seen = watch(page);
    const target = `${harness.origin}/consent?state=abc`;
    await render(page, urlRequest(target));
    await page.waitForTimeout(300);
    // Keys on everything that is not a button: the text, the page, the domain.
    for (const selector of ['[part~="message"]', '[part~="domain"]', '[part~="url"] code']) {
      await shadow(page, selector).click();
      await page.keyboard.press('Enter');
      await page.keyboard.press('Space');
    }
    await page.locator('h1').click();
    await page.keyboard.press('Enter');
    await page.waitForTimeout(300);
    expect(seen).toEqual({ opened: [], navigated: [] });
    expect(await settled(page)).toBe(false);

    // The context's `page` event: a `noopener` window may not count as this page's popup.
    const popup = page.context().waitForEvent('page');
    await page.getByRole('button', { name: 'Open 127.0.0.1' }).click();
    const opened = await popup;
    await opened.waitForURL(target);
    expect(opened.url()).toBe(target);
    expect(await result(page)).toStrictEqual({ action: 'accept' });
    // noopener: the opened page has no handle on the client's page.
    expect(await opened.evaluate(() => window.opener)).toBeNull();
    expect(page.url()).toBe(`${harness.origin}/`);
    expect(seen.navigated).toEqual([]);
    expect(problemsOf(page)).toEqual([]);
  });

  test('Decline and Cancel (and Escape) open nothing', async () => {
    for (const [press, action] of [
      ['Decline', 'decline'],
      ['Cancel', 'cancel'],
      ['Escape', 'cancel'],
    ] as const) {
      const page = await harness.newPage();
      const seen = watch(page);
      await render(page, urlRequest(`${harness.origin}/consent`));
      if (press === 'Escape') {
        // Escape cancels while focus is in the view (here on the Open button: Tab, no Enter).
        await page.keyboard.press('Tab');
        await page.keyboard.press('Escape');
      } else await page.getByRole('button', { name: press }).click();
      expect(await result(page)).toStrictEqual({ action });
      await page.waitForTimeout(100);
      expect(seen.opened).toEqual([]);
    }
  });
});

describe('refused', () => {
  test.each([
    ['javascript:alert(document.domain)', 'this one is javascript'],
    ['data:text/html,<script>alert(1)</script>', 'this one is data'],
    ['https://user:secret@auth.example.com/', 'user name or password'],
    ['https://trusted.example.com@evil.example/', 'user name or password'],
    ['not a url', 'not a valid absolute URL'],
  ])('%s: an error, no Open button; decline and cancel still work', async (url, reason) => {
    const page = await harness.newPage();
    const seen = watch(page);
    await render(page, urlRequest(url));
    expect(await summaryText(page)).toContain('This link cannot be opened.');
    expect(await summaryText(page)).toContain(reason);
    expect(await page.getByRole('button').allTextContents()).toEqual(['Decline', 'Cancel']);
    expect(await shadow(page, '[part~="domain"]').count()).toBe(0);
    await page.getByRole('button', { name: 'Decline' }).click();
    expect(await result(page)).toStrictEqual({ action: 'decline' });
    expect(seen).toEqual({ opened: [], navigated: [] });
  });
});
