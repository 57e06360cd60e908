// @ts-check
/**
 * The README's code blocks that stand for files: a block right after `<!-- include: <path> -->`
 * must be exactly that file (GitHub cannot include files, so the README carries a copy, and
 * test/repo/readme.test.ts keeps the copy true). `node scripts/readmeExamples.mjs --write`
 * (`pnpm readme`) rewrites the copies from the files; without `--write` it lists stale ones.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const INCLUDE = /<!-- include: (\S+) -->\n\n?```(\w*)\n([\s\S]*?)```/g;

/**
 * @param {string} readme
 * @returns {{ path: string; language: string; shown: string; file: string }[]}
 */
export function readmeIncludes(readme) {
  return [...readme.matchAll(INCLUDE)].map((match) => ({
    path: /** @type {string} */ (match[1]),
    language: match[2] ?? '',
    shown: match[3] ?? '',
    file: readFileSync(`${repoRoot}${match[1]}`, 'utf8'),
  }));
}

/** @param {string} readme */
export function withIncludesRefreshed(readme) {
  return readme.replace(
    INCLUDE,
    (_block, path, language) =>
      `<!-- include: ${path} -->\n\n\`\`\`${language}\n${readFileSync(`${repoRoot}${path}`, 'utf8')}\`\`\``,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = `${repoRoot}README.md`;
  const readme = readFileSync(path, 'utf8');
  if (process.argv.includes('--write')) {
    writeFileSync(path, withIncludesRefreshed(readme));
  } else {
    const stale = readmeIncludes(readme).filter((include) => include.shown !== include.file);
    for (const include of stale) process.stderr.write(`README.md: stale copy of ${include.path}\n`);
    process.exitCode = stale.length > 0 ? 1 : 0;
  }
}
