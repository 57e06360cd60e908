import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, test } from 'vitest';

/**
 * Every published package is documented where a reader looks for it, and every guide page can be
 * reached: the API reference (typedoc's entry points, the site's API sidebar and the API start
 * page's table), the README's package table, and the guide sidebar. A package added without
 * its docs, or a guide page nobody links, fails here naming it.
 */

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const textOf = (path: string) => readFileSync(`${repoRoot}${path}`, 'utf8');

/** The directory names under packages/ whose package.json is not `"private": true`. */
const published = readdirSync(`${repoRoot}packages`).filter((dir) => {
  const manifest = JSON.parse(textOf(`packages/${dir}/package.json`)) as { private?: boolean };
  return manifest.private !== true;
});

const siteConfig = textOf('docs/.vitepress/config.ts');

/** The names in the site config's `const packages = [ … ];`, which the API sidebar is made from. */
function sidebarPackages(): string[] {
  const list = /^const packages = \[([^\]]*)\];$/m.exec(siteConfig)?.[1];
  if (list === undefined) throw new Error('docs/.vitepress/config.ts has no `const packages = [`');
  return [...list.matchAll(/'([\w-]+)'/g)].map((match) => match[1]!);
}

test('the published packages are the ones this test expects to find', () => {
  expect(published).toEqual(
    expect.arrayContaining(['server', 'client', 'forms', 'redis', 'testing']),
  );
});

describe.each(published)('@parley/%s', (dir) => {
  test('typedoc generates its API page (docs/typedoc.json entryPoints)', () => {
    const { entryPoints } = JSON.parse(textOf('docs/typedoc.json')) as { entryPoints: string[] };
    expect(entryPoints).toContain(`../packages/${dir}`);
  });

  test('the API sidebar links its page (docs/.vitepress/config.ts)', () => {
    expect(sidebarPackages()).toContain(dir);
  });

  test("the API reference's start page has a row for it (docs/typedoc.md)", () => {
    expect(textOf('docs/typedoc.md')).toMatch(new RegExp(`^\\| \`@parley/${dir}\` +\\|`, 'm'));
  });

  test("the README's package table has a row for it, linking its folder", () => {
    const packagesSection = textOf('README.md').split('\n## Packages\n')[1]?.split('\n## ')[0];
    expect(packagesSection).toContain(`| [\`@parley/${dir}\`](packages/${dir}) `);
  });
});

test('the API sidebar names no package that is not published', () => {
  expect(sidebarPackages().filter((name) => !published.includes(name))).toEqual([]);
});

test('every guide page is in the guide sidebar', () => {
  const pages = readdirSync(`${repoRoot}docs/guide`)
    .filter((name) => name.endsWith('.md'))
    .map((name) => `/guide/${name.slice(0, -'.md'.length)}`);
  const linked = new Set([...siteConfig.matchAll(/link: '(\/guide\/[\w-]+)'/g)].map((m) => m[1]));
  expect(pages.filter((page) => !linked.has(page))).toEqual([]);
});
