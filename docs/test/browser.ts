/**
 * Which Chromium the site test drives, so it runs on a machine with nothing but Node and npm:
 * `CHROMIUM_PATH` when it is set; else a Chromium or Chrome installed on the system (Linux and
 * macOS paths); else the headless Chromium that ships inside the `@sparticuz/chromium` npm
 * package (Linux x64), unpacked once into node_modules/.cache; else a clear failure that says
 * how to get one.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface Browser {
  executablePath: string;
  /** Where it came from, for the test's log and its failure messages. */
  source: string;
  /** Extra environment for the browser process. */
  env: Record<string, string>;
}

/** Installed browsers, in the order they are tried. */
export function systemBrowserPaths(platform: NodeJS.Platform): string[] {
  if (platform === 'darwin') {
    return [
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
    ];
  }
  if (platform === 'linux') {
    return [
      '/usr/bin/chromium',
      '/usr/bin/chromium-browser',
      '/snap/bin/chromium',
      '/usr/bin/google-chrome',
      '/usr/bin/google-chrome-stable',
      '/opt/google/chrome/chrome',
    ];
  }
  return [];
}

export interface FindBrowserOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  exists?: (path: string) => boolean;
  /** The browser shipped in an npm package, or `undefined` where there is none for this machine. */
  packaged?: () => Promise<Browser | undefined>;
}

/**
 * How every browser test starts the browser it found: headless, without the sandbox (CI runs as
 * root in a container), the GPU or QUIC, and with nothing fetched in the background.
 */
export function launchOptions(browser: Browser): {
  executablePath: string;
  env: Record<string, string | undefined>;
  headless: boolean;
  args: string[];
} {
  return {
    executablePath: browser.executablePath,
    env: { ...process.env, ...browser.env },
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  };
}

export class NoBrowserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoBrowserError';
  }
}

export async function findBrowser(options: FindBrowserOptions = {}): Promise<Browser> {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const exists = options.exists ?? existsSync;
  const chosen = env.CHROMIUM_PATH;
  if (chosen !== undefined && chosen !== '') {
    if (!exists(chosen)) {
      throw new NoBrowserError(
        `CHROMIUM_PATH is ${chosen}, which does not exist: point it at a Chromium or Chrome binary, or unset it.`,
      );
    }
    return { executablePath: chosen, source: 'CHROMIUM_PATH', env: {} };
  }
  const installed = systemBrowserPaths(platform).find((path) => exists(path));
  if (installed !== undefined) return { executablePath: installed, source: 'system', env: {} };
  const packaged = await (options.packaged ?? packagedChromium)();
  if (packaged !== undefined) return packaged;
  throw new NoBrowserError(
    `No Chromium found: CHROMIUM_PATH is not set, none is installed (${systemBrowserPaths(platform).join(', ') || 'no known paths on this platform'}), ` +
      `and @sparticuz/chromium ships one only for Linux x64. Install one (apt-get install -y chromium, or brew install --cask chromium) or set CHROMIUM_PATH.`,
  );
}

const docsRoot = join(import.meta.dirname, '..');

/**
 * `@sparticuz/chromium`: a brotli-packed headless Chromium (with fonts and SwiftShader) built
 * for Linux x64. Its own `executablePath()` unpacks into the system temp directory, shared by
 * everyone on the machine and trusted on sight even when half-written; here it unpacks into a
 * fresh directory of its own (through `TMPDIR`) that is renamed into place only when complete.
 */
export async function packagedChromium(
  cacheRoot: string = join(docsRoot, 'node_modules/.cache/parley-chromium'),
): Promise<Browser | undefined> {
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  const require = createRequire(join(docsRoot, 'package.json'));
  let entry: string;
  try {
    entry = require.resolve('@sparticuz/chromium');
  } catch {
    return undefined;
  }
  // build/cjs/index.cjs → the package root (its exports map does not expose package.json).
  const manifest = JSON.parse(readFileSync(join(dirname(entry), '../../package.json'), 'utf8')) as {
    version: string;
  };
  const dir = join(cacheRoot, manifest.version);
  const executablePath = join(dir, 'chromium');
  if (!existsSync(executablePath)) {
    mkdirSync(cacheRoot, { recursive: true });
    const partial = mkdtempSync(`${dir}.partial-`);
    const { default: chromium } = await import('@sparticuz/chromium');
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = partial;
    try {
      await chromium.executablePath();
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    // Its fonts.conf names /tmp/fonts; this one keeps the system's fonts and adds the package's.
    writeFileSync(
      join(partial, 'fonts.conf'),
      [
        '<?xml version="1.0"?>',
        '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
        '<fontconfig>',
        '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
        `  <dir>${dir}/fonts/fonts</dir>`,
        `  <cachedir>${dir}/fonts-cache</cachedir>`,
        '</fontconfig>',
        '',
      ].join('\n'),
    );
    try {
      renameSync(partial, dir);
    } catch (error) {
      // Another run finished first: use its copy.
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(executablePath)) throw error;
    }
  }
  return {
    executablePath,
    source: `@sparticuz/chromium ${manifest.version}`,
    env: { FONTCONFIG_FILE: join(dir, 'fonts.conf') },
  };
}
