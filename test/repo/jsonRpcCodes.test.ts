import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';
import { describe, expect, test } from 'vitest';

/**
 * JSON-RPC error codes are written as numbers in one place: the table in `@parley/core`
 * (`packages/core/src/errors/codes.ts`). Everywhere else under `packages/*\/src` a code is named
 * from it (`jsonRpcError('invalidParams', …)`, `JSON_RPC_ERROR_CODES.internalError`,
 * `errorReply('sessionNotFound', …)`), so what each code means and the HTTP status it travels
 * with cannot drift apart. Comments may mention codes; code and strings may not.
 */

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const TABLE = 'packages/core/src/errors/codes.ts';

/** The JSON-RPC reserved range, -32768 to -32000, without its minus sign. */
function isReservedMagnitude(text: string): boolean {
  const value = Number(text.replaceAll('_', ''));
  return Number.isInteger(value) && value >= 32000 && value <= 32768;
}

const CODE_IN_TEXT = /-\s*32_?\d{3}(?!\d)/;

/** The lines (1-based) of `source` that write a JSON-RPC error code, outside comments. */
function linesWithCodes(source: string, fileName = 'probe.ts'): number[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const lines = new Set<number>();
  const lineOf = (node: ts.Node) =>
    file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
  const visit = (node: ts.Node): void => {
    if (
      ts.isPrefixUnaryExpression(node) &&
      node.operator === ts.SyntaxKind.MinusToken &&
      ts.isNumericLiteral(node.operand) &&
      isReservedMagnitude(node.operand.getText(file))
    ) {
      lines.add(lineOf(node));
    } else if (
      (ts.isStringLiteral(node) ||
        ts.isNoSubstitutionTemplateLiteral(node) ||
        ts.isTemplateHead(node) ||
        ts.isTemplateMiddle(node) ||
        ts.isTemplateTail(node)) &&
      CODE_IN_TEXT.test(node.text)
    ) {
      lines.add(lineOf(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...lines].sort((a, b) => a - b);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.[cm]?tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every `packages/*\/src` file that writes a code, with its lines, by repository path. */
function codesInSources(): Map<string, number[]> {
  const found = new Map<string, number[]>();
  const packages = join(repoRoot, 'packages');
  for (const pkg of readdirSync(packages, { withFileTypes: true })) {
    if (!pkg.isDirectory()) continue;
    const src = join(packages, pkg.name, 'src');
    let files: string[];
    try {
      files = sourceFiles(src);
    } catch {
      continue; // a package without sources
    }
    for (const path of files) {
      const lines = linesWithCodes(readFileSync(path, 'utf8'), path);
      if (lines.length > 0) found.set(relative(repoRoot, path).split('\\').join('/'), lines);
    }
  }
  return found;
}

describe('the scanner', () => {
  test('finds codes in code and strings, not in comments, nor numbers that are no code', () => {
    const source = [
      '// -32603 in a line comment',
      '/* -32602 in a block',
      '   comment, over two lines -32601 */',
      'const a = { code: -32603 };',
      'const b = -32_600;',
      "const c = 'error -32001';",
      'const d = `failed: -32042 ${x}`;',
      'const e = - 32000;',
      'const f = 32603 + 1024 - 31999 - 40000;',
      "const g = 'http://example.test/path'; const h = -32769;",
      '/** @see -32021 */ const i = 1;',
    ].join('\n');
    expect(linesWithCodes(source)).toEqual([4, 5, 6, 7, 8]);
  });
});

describe('JSON-RPC error codes', () => {
  const found = codesInSources();

  test('are numbers only in the table of @parley/core', () => {
    const offending = [...found]
      .filter(([path]) => path !== TABLE)
      .flatMap(([path, lines]) => lines.map((line) => `${path}:${line}`));
    expect(
      offending,
      'Name the code from JSON_RPC_ERRORS in @parley/core (jsonRpcError, JSON_RPC_ERROR_CODES, errorReply) instead of writing it',
    ).toEqual([]);
  });

  test('the table holds them (the scanner sees it)', () => {
    expect(found.get(TABLE)?.length).toBeGreaterThan(10);
  });
});
