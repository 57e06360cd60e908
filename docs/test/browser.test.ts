import { existsSync, statSync } from 'node:fs';

import { describe, expect, test } from 'vitest';

import { findBrowser, NoBrowserError, packagedChromium, type Browser } from './browser.ts';

/** The order the site test looks for a browser in, on machines with and without one. */

const packaged: Browser = { executablePath: '/cache/chromium', source: 'package', env: {} };
const onDisk =
  (...paths: string[]) =>
  (path: string) =>
    paths.includes(path);

describe('findBrowser', () => {
  test('CHROMIUM_PATH comes first', async () => {
    const browser = await findBrowser({
      env: { CHROMIUM_PATH: '/opt/my/chrome' },
      platform: 'linux',
      exists: onDisk('/opt/my/chrome', '/usr/bin/chromium'),
      packaged: async () => packaged,
    });
    expect(browser).toMatchObject({ executablePath: '/opt/my/chrome', source: 'CHROMIUM_PATH' });
  });

  test('a CHROMIUM_PATH that does not exist fails, naming it, rather than trying others', async () => {
    await expect(
      findBrowser({
        env: { CHROMIUM_PATH: '/nowhere/chrome' },
        platform: 'linux',
        exists: onDisk('/usr/bin/chromium'),
        packaged: async () => packaged,
      }),
    ).rejects.toThrow('CHROMIUM_PATH is /nowhere/chrome, which does not exist');
  });

  test('then a system browser, on Linux and on macOS', async () => {
    const linux = await findBrowser({
      env: {},
      platform: 'linux',
      exists: onDisk('/usr/bin/google-chrome'),
      packaged: async () => packaged,
    });
    expect(linux).toMatchObject({ executablePath: '/usr/bin/google-chrome', source: 'system' });
    const mac = await findBrowser({
      env: {},
      platform: 'darwin',
      exists: onDisk('/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'),
      packaged: async () => packaged,
    });
    expect(mac.executablePath).toBe('/Applications/Google Chrome.app/Contents/MacOS/Google Chrome');
  });

  test('then the one shipped in an npm package', async () => {
    const browser = await findBrowser({
      env: {},
      platform: 'linux',
      exists: onDisk(),
      packaged: async () => packaged,
    });
    expect(browser).toBe(packaged);
  });

  test('and only then a failure that says how to get one', async () => {
    const failure = findBrowser({
      env: {},
      platform: 'darwin',
      exists: onDisk(),
      packaged: async () => undefined,
    });
    await expect(failure).rejects.toBeInstanceOf(NoBrowserError);
    await expect(failure).rejects.toThrow(/No Chromium found.*set CHROMIUM_PATH/);
  });
});

test.runIf(process.platform === 'linux' && process.arch === 'x64')(
  '@sparticuz/chromium unpacks into a complete directory of its own, once',
  async () => {
    const first = await packagedChromium();
    expect(first?.source).toMatch(/^@sparticuz\/chromium \d+/);
    expect(statSync(first!.executablePath).size).toBeGreaterThan(50_000_000);
    expect(existsSync(first!.env.FONTCONFIG_FILE!)).toBe(true);
    expect(await packagedChromium()).toEqual(first);
  },
  120_000,
);
