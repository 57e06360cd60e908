// @ts-check
/**
 * Code in the Markdown the project publishes (the README, the packages' READMEs, the docs site's
 * start page and guides) comes from files that the tests compile and run: the examples in
 * docs/examples/ (each run by a test there), or, for a declaration a page quotes, a package's own
 * src/. A fenced block right after `<!-- include: <path> -->` (or
 * `<!-- include: <path>#<region> -->`) is a copy of that file, or of the lines between
 * `// #region <region>` and `// #endregion <region>` in it (dedented, other region markers
 * dropped). GitHub cannot include files and VitePress renders the
 * copy as it is, so both show the same code, and test/repo/markdownCode.test.ts keeps every copy
 * true and refuses a code block that comes from no file (`sh` blocks, commands to type, are the
 * one exception).
 *
 * `pnpm readme` (`node scripts/markdownIncludes.mjs --write`) rewrites every copy from its file;
 * without `--write` it lists the stale ones and exits 1.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { regionText } from './jsdocExamples.mjs';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Fence languages a page may write inline: shell commands to type, never code of the API. */
export const EXEMPT_LANGUAGES = new Set(['sh']);

const MARKER = /^\s*<!-- include: ([^#\s]+)(?:#([\w-]+))? -->$/;
const FENCE = /^(\s*)(`{3,}|~{3,})(.*)$/;

/** @param {string} dir @returns {string[]} the `.md` files under `dir`, relative to the repository */
function markdownUnder(dir) {
  return readdirSync(`${repoRoot}${dir}`, { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return markdownUnder(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/**
 * The Markdown this applies to, relative to the repository: the README, every package's README,
 * the docs start page and every guide page.
 * @returns {string[]}
 */
export function markdownFiles() {
  const packages = readdirSync(`${repoRoot}packages`)
    .map((name) => `packages/${name}/README.md`)
    .filter((path) => existsSync(`${repoRoot}${path}`));
  return ['README.md', ...packages, 'docs/index.md', ...markdownUnder('docs/guide')];
}

/**
 * @typedef {{ line: number; indent: string; info: string; language: string; body: string; include?: { path: string; region?: string; line: number } }} FencedBlock
 * `line` is the opening fence's (1-based); `indent` what precedes the fence (a block in a list
 * item is indented); `body` the lines between the fences, without that indent, each ending in a
 * newline; `include` the marker the block copies, when it follows one.
 */

/**
 * Every fenced code block of a Markdown text, in order, with the include marker before it.
 * @param {string} text
 * @returns {FencedBlock[]}
 */
export function fencedBlocks(text) {
  const lines = text.split('\n');
  /** @type {FencedBlock[]} */
  const blocks = [];
  /** @type {{ path: string; region?: string; line: number } | undefined} */
  let marker;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const markerMatch = MARKER.exec(line);
    if (markerMatch !== null) {
      marker = { path: markerMatch[1] ?? '', region: markerMatch[2], line: index + 1 };
      continue;
    }
    const open = FENCE.exec(line);
    if (open === null) {
      // One blank line may separate a marker from its block; anything else ends the marker.
      if (line.trim() !== '' || (marker !== undefined && index + 1 - marker.line > 1)) {
        marker = undefined;
      }
      continue;
    }
    const indent = open[1] ?? '';
    const fence = open[2] ?? '```';
    const info = (open[3] ?? '').trim();
    const closing = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    let end = index + 1;
    while (end < lines.length && !closing.test(lines[end] ?? '')) end += 1;
    const body = lines
      .slice(index + 1, end)
      .map(
        (bodyLine) => `${bodyLine.startsWith(indent) ? bodyLine.slice(indent.length) : bodyLine}\n`,
      )
      .join('');
    blocks.push({
      line: index + 1,
      indent,
      info,
      language: info.split(/[\s{[]/)[0] ?? '',
      body,
      ...(marker === undefined ? {} : { include: marker }),
    });
    marker = undefined;
    index = end;
  }
  return blocks;
}

/**
 * The 1-based lines of every include marker in a Markdown text, whether a block follows it or not.
 * @param {string} text
 * @returns {number[]}
 */
export function includeMarkerLines(text) {
  return text.split('\n').flatMap((line, index) => (MARKER.test(line) ? [index + 1] : []));
}

/**
 * What an include marker stands for: the file, or its region, ending in one newline.
 * @param {string} path relative to the repository
 * @param {string | undefined} region
 */
export function includedText(path, region) {
  if (region !== undefined) return `${regionText(path, region)}\n`;
  const text = readFileSync(`${repoRoot}${path}`, 'utf8');
  return text.endsWith('\n') ? text : `${text}\n`;
}

/**
 * `text` with every included block rewritten from its file (the fence and its info string kept).
 * @param {string} text
 */
export function withIncludesRefreshed(text) {
  const lines = text.split('\n');
  const blocks = fencedBlocks(text).filter((block) => block.include !== undefined);
  // From the last block up, so earlier line numbers stay right.
  for (const block of blocks.reverse()) {
    const { path, region } = /** @type {NonNullable<FencedBlock['include']>} */ (block.include);
    const bodyLines = block.body === '' ? 0 : block.body.split('\n').length - 1;
    const copy = includedText(path, region)
      .replace(/\n$/, '')
      .split('\n')
      .map((line) => (line === '' ? '' : `${block.indent}${line}`));
    lines.splice(block.line, bodyLines, ...copy);
  }
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const write = process.argv.includes('--write');
  let stale = 0;
  for (const path of markdownFiles()) {
    const text = readFileSync(`${repoRoot}${path}`, 'utf8');
    const refreshed = withIncludesRefreshed(text);
    if (refreshed === text) continue;
    stale += 1;
    if (write) writeFileSync(`${repoRoot}${path}`, refreshed);
    else process.stderr.write(`${path}: stale copy of an included file\n`);
  }
  process.exitCode = !write && stale > 0 ? 1 : 0;
}
