// @ts-check
/**
 * The `@example`s in the JSDoc of the packages' source: each is a copy of a region of a tested
 * file in `docs/examples/`, named on its first line (`// docs/examples/<file>#<region>`), so it
 * cannot drift from code that compiles and runs. test/repo/jsdocExamples.test.ts keeps the copies
 * true; `node scripts/jsdocExamples.mjs --write` rewrites them from the regions, and without
 * `--write` it lists stale ones.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * `@example`, then a ```ts fence whose first line names the region, inside a JSDoc block
 * (every line starts with the same `<indent> * `).
 */
const EXAMPLE =
  /^([ \t]*)\* @example\n\1\* ```ts\n\1\* \/\/ (docs\/examples\/[^#\s]+)#([\w-]+)\n((?:\1\*(?: [^\n]*)?\n)*?)\1\* ```$/gm;

/** @param {string} dir @returns {string[]} */
function sourceFiles(dir) {
  return readdirSync(`${repoRoot}${dir}`, { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The packages' source files, relative to the repository. */
export function packageSources() {
  return readdirSync(`${repoRoot}packages`).flatMap((name) => sourceFiles(`packages/${name}/src`));
}

/**
 * The lines of `region` in `file` (under the repository), dedented, without the region markers
 * of other regions nested in it.
 * @param {string} file @param {string} region @returns {string}
 */
export function regionText(file, region) {
  const lines = readFileSync(`${repoRoot}${file}`, 'utf8').split('\n');
  const start = lines.findIndex((line) => line.trim() === `// #region ${region}`);
  const end = lines.findIndex((line) => line.trim() === `// #endregion ${region}`);
  if (start < 0 || end < start) throw new Error(`${file} has no region '${region}'`);
  const body = lines.slice(start + 1, end).filter((line) => !/^\s*\/\/ #(end)?region\b/.test(line));
  const indent = Math.min(
    ...body.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)?.[0].length ?? 0),
  );
  return body.map((line) => line.slice(indent).trimEnd()).join('\n');
}

/** @param {string} text @param {string} indent */
function asJsdoc(text, indent) {
  return text
    .split('\n')
    .map((line) => (line === '' ? `${indent}*\n` : `${indent}* ${line}\n`))
    .join('');
}

/**
 * Every `@example` in the packages' source: where it is, the region it names, what it shows and
 * what the region holds.
 * @returns {{ source: string; line: number; file: string; region: string; shown: string; expected: string }[]}
 */
export function jsdocExamples() {
  return packageSources().flatMap((source) => {
    const text = readFileSync(`${repoRoot}${source}`, 'utf8');
    return [...text.matchAll(EXAMPLE)].map((match) => {
      const [, indent = '', file = '', region = '', shown = ''] = match;
      return {
        source,
        line: text.slice(0, match.index).split('\n').length,
        file,
        region,
        shown,
        expected: asJsdoc(regionText(file, region), indent),
      };
    });
  });
}

/** Every `@example` tag in the packages' source, matched by the pattern above or not. */
export function exampleTagCount() {
  return packageSources().reduce(
    (count, source) =>
      count + (readFileSync(`${repoRoot}${source}`, 'utf8').match(/\* @example\b/g)?.length ?? 0),
    0,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const write = process.argv.includes('--write');
  let stale = 0;
  for (const source of packageSources()) {
    const text = readFileSync(`${repoRoot}${source}`, 'utf8');
    const refreshed = text.replace(
      EXAMPLE,
      (_block, indent, file, region) =>
        `${indent}* @example\n${indent}* \`\`\`ts\n${indent}* // ${file}#${region}\n` +
        `${asJsdoc(regionText(file, region), indent)}${indent}* \`\`\``,
    );
    if (refreshed === text) continue;
    stale += 1;
    if (write) writeFileSync(`${repoRoot}${source}`, refreshed);
    else process.stderr.write(`${source}: stale @example\n`);
  }
  process.exitCode = !write && stale > 0 ? 1 : 0;
}
