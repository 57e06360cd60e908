import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';
import { describe, expect, test } from 'vitest';

import { fencedBlocks, markdownFiles } from '../../scripts/markdownIncludes.mjs';

/**
 * The docs name only API that exists. The names are read from the packages' real entry points
 * (every `exports` entry's `@parley/source` file) with the TypeScript checker, and the members
 * from the real classes.
 *
 * The rules, applied to the README, every package README, the docs start page and every guide
 * (code blocks there are compiled examples, so their names are checked by tsc as well):
 *
 * 1. `import { … } from '@parley/<pkg>[/<entry>]'`, in a fenced block or in inline code: every
 *    name is exported by that entry.
 * 2. Inline code `ctx.<member>`: a public member of `Context` (@parley/server) or of
 *    `InputContext` (@parley/client: the `ctx` of the client's handlers).
 * 3. Inline code `mcp.<member>` (the docs' name for a server): a public member of `ParleyServer`;
 *    `client.<member>`: a public member of `Client` (where the name ends at the member: a longer
 *    dotted name such as the OpenTelemetry attribute `mcp.method.name` is something else).
 *    A span that is a file name (`client.ts`) is not a mention.
 * 4. Inline code that starts with a factory, `create<Name>` (called or not): an export of a
 *    Parley package.
 * 5. Inline code that starts with a PascalCase name (alone, `new X(…)`, `X(…)`, `X<…>`, `X.y`, or
 *    after `instanceof`): an export of a Parley package, or a JavaScript global.
 *
 * Names that rules 3–5 would take for Parley's but that belong to something else are listed in
 * FOREIGN, each with where it comes from. Lower-case words (option names, fields, `requestState`)
 * are never checked: they are not API a reader imports.
 */

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Names the docs mention that are not Parley's, with whose they are. */
const FOREIGN: Record<string, string> = {
  createClient: 'node-redis',
  createServer: "node:http and node:net, and the docs examples' own server factories",
  createRequestStateCodec: 'the MCP TypeScript SDK (compared with in the state-sealing README)',
  ArkEnv: 'ArkType',
  InMemoryTransport: 'the MCP TypeScript SDK',
  Codex: "a host's clientInfo.name (OpenAI Codex), in the host profiles",
  ChatGPT: "a host's clientInfo.name, in the host profiles",
  App: "ext-apps (@modelcontextprotocol/ext-apps), the MCP Apps extension's app side",
  AppBridge:
    "ext-apps (@modelcontextprotocol/ext-apps/app-bridge), the MCP Apps extension's host side",
  ProtocolError: 'the MCP TypeScript SDK',
  SdkError: 'the MCP TypeScript SDK',
  StandardSchemaWithJSON: 'the MCP TypeScript SDK',
  GuardAwareMiddleware: "FastMCP's seed class, written in the docs' middleware example",
  Host: 'an HTTP header',
  Origin: 'an HTTP header',
  Accept: 'an HTTP header',
  Allow: 'an HTTP header',
  TimeoutStopSec: 'systemd',
  Paris: "a docs example's answer",
  Priority: "a docs example's TypeScript enum",
  'client.duplicate': "node-redis's client (the Redis stores' subscriber connection)",
  Record: "TypeScript's utility type",
  Bun: 'the Bun runtime',
  Deno: 'the Deno runtime',
  // FastMCP (Python), set beside Parley in the "Coming from FastMCP" guide.
  Enum: "Python's enum.Enum",
  TypedDict: "Python's typing.TypedDict",
  Field: "Pydantic's Field",
  ElicitRequestURLParams: 'the MCP Python SDK (mcp.types)',
  'ctx.input_responses': "FastMCP's Context",
  'ctx.request_state': "FastMCP's Context",
  'ctx.request_context': "FastMCP's Context",
  // The MCP TypeScript SDK v2, set beside Parley in the "Coming from the MCP SDK" guide.
  'ctx.mcpReq': "the SDK's handler context",
  'client.setRequestHandler': "the SDK's Client",
  createMcpHandler: 'the MCP TypeScript SDK (@modelcontextprotocol/server)',
};

interface Entry {
  specifier: string;
  file: string;
}

/** Every package entry point: `@parley/<pkg>` and its subpaths, with their source files. */
function entries(): Entry[] {
  return readdirSync(`${repoRoot}packages`).flatMap((dir) => {
    const manifest = JSON.parse(
      readFileSync(`${repoRoot}packages/${dir}/package.json`, 'utf8'),
    ) as {
      name: string;
      exports: Record<string, { '@parley/source'?: string } | string>;
    };
    return Object.entries(manifest.exports).flatMap(([subpath, target]) => {
      const source = typeof target === 'object' ? target['@parley/source'] : undefined;
      if (source === undefined) return [];
      return [
        {
          specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
          file: `${repoRoot}packages/${dir}/${source.slice(2)}`,
        },
      ];
    });
  });
}

const packageEntries = entries();
const program = ts.createProgram(
  packageEntries.map((entry) => entry.file),
  {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    customConditions: ['@parley/source'],
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  },
);
const checker = program.getTypeChecker();

function moduleSymbol(file: string): ts.Symbol {
  const source = program.getSourceFile(file);
  const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (symbol === undefined) throw new Error(`no module for ${file}`);
  return symbol;
}

/** What each entry exports, by specifier. */
const exportsOf = new Map(
  packageEntries.map((entry) => [
    entry.specifier,
    new Set(checker.getExportsOfModule(moduleSymbol(entry.file)).map((symbol) => symbol.name)),
  ]),
);
const allExports = new Set([...exportsOf.values()].flatMap((names) => [...names]));

/** The public members of a class or interface an entry exports. */
function publicMembers(specifier: string, name: string): Set<string> {
  const entry = packageEntries.find((candidate) => candidate.specifier === specifier)!;
  const exported = checker
    .getExportsOfModule(moduleSymbol(entry.file))
    .find((symbol) => symbol.name === name);
  if (exported === undefined) throw new Error(`${specifier} exports no ${name}`);
  const symbol =
    exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const type = checker.getDeclaredTypeOfSymbol(symbol);
  return new Set(
    checker
      .getPropertiesOfType(type)
      .filter((member) => {
        const modifiers = ts.getCombinedModifierFlags(
          member.valueDeclaration ?? member.declarations![0]!,
        );
        return (
          !member.name.startsWith('#') &&
          (modifiers & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) === 0
        );
      })
      .map((member) => member.name),
  );
}

const members = {
  ctx: new Set([
    ...publicMembers('@parley/server', 'Context'),
    ...publicMembers('@parley/client', 'InputContext'),
  ]),
  mcp: publicMembers('@parley/server', 'ParleyServer'),
  client: publicMembers('@parley/client', 'Client'),
};

const isGlobal = (name: string) => name in globalThis;

/** `client.ts`, `docs/guide/client.md`: a file, not a member. */
const FILE_NAME = /^[\w./-]+\.(ts|tsx|js|mjs|md|txt|json|toml|cfg)$/;

/** A Markdown text without its fenced blocks, line numbers kept. */
function prose(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return '';
    }
    return fence === undefined ? line : '';
  });
}

interface Mention {
  where: string;
  text: string;
}

/** Inline code spans, with where they are. */
function inlineCode(path: string, text: string): Mention[] {
  return prose(text).flatMap((line, index) =>
    [...line.matchAll(/(`+)([^`]+?)\1(?!`)/g)].map((match) => ({
      where: `${path}:${index + 1}`,
      text: match[2]!.trim(),
    })),
  );
}

/** `import … from '@parley/…'` statements in a piece of code: the names and the specifier. */
function parleyImports(code: string): { names: string[]; specifier: string }[] {
  return [...code.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s*from\s*'(@parley\/[^']+)'/g)].map(
    (match) => ({
      specifier: match[3]!,
      names: match[2]!
        .split(',')
        .map(
          (part) =>
            part
              .trim()
              .replace(/^type\s+/, '')
              .split(/\s+as\s+/)[0]!,
        )
        .filter((name) => name !== ''),
    }),
  );
}

/** Every name a Markdown file claims Parley exports or members, with what it should be. */
function problemsIn(path: string, text: string): string[] {
  const problems: string[] = [];
  const imports = [
    ...fencedBlocks(text).map((block) => ({ where: `${path}:${block.line}`, text: block.body })),
    ...inlineCode(path, text),
  ];
  for (const { where, text: code } of imports) {
    for (const { specifier, names } of parleyImports(code)) {
      const exported = exportsOf.get(specifier);
      if (exported === undefined) problems.push(`${where}: there is no entry '${specifier}'`);
      else
        for (const name of names.filter((candidate) => !exported.has(candidate)))
          problems.push(`${where}: '${specifier}' exports no ${name}`);
    }
  }
  for (const { where, text: code } of inlineCode(path, text)) {
    if (FILE_NAME.test(code)) continue;
    for (const [owner, known] of Object.entries(members)) {
      // `ctx.requestContext.principal` is ctx's `requestContext`; `mcp.method.name` is not the
      // server's at all (an OpenTelemetry attribute): mcp and client are checked where the name
      // ends at the member.
      const tail = owner === 'ctx' ? '' : '(?![\\w$.])';
      const pattern = new RegExp(`(?<![\\w.$])${owner}\\.([A-Za-z_$][\\w$]*)${tail}`, 'g');
      for (const match of code.matchAll(pattern)) {
        const member = match[1]!;
        if (!known.has(member) && FOREIGN[`${owner}.${member}`] === undefined)
          problems.push(`${where}: \`${owner}.${member}\` is not a public member`);
      }
    }
    const lead = /^(?:new\s+|await\s+|instanceof\s+)?([A-Za-z_$][\w$]*)(?=$|[(<.])/.exec(code)?.[1];
    const claimed = lead !== undefined && (/^create[A-Z]/.test(lead) || /^[A-Z][a-z]/.test(lead));
    if (claimed && !allExports.has(lead) && !isGlobal(lead) && FOREIGN[lead] === undefined)
      problems.push(`${where}: \`${lead}\` is exported by no @parley package`);
  }
  return problems;
}

test('the names come from the real entry points and classes', () => {
  expect(exportsOf.get('@parley/server')).toContain('ParleyServer');
  expect(exportsOf.get('@parley/forms/react')).toContain('Elicitation');
  expect(members.ctx).toContain('ask');
  expect(members.ctx).toContain('askAll');
  expect(members.ctx).toContain('remember');
  expect(members.ctx).toContain('call'); // InputContext's
  expect(members.ctx).not.toContain('samplingAnswer');
  expect(members.mcp).toContain('resourceTemplate');
  expect(members.client).toContain('callTool');
});

test('the rules catch a member or an export that does not exist, and leave option names alone', () => {
  const page = [
    'Read it with `ctx.samplingAnswer(key)`, or with `ctx.answer(key, ask)`; set `maxReasks`.',
    'Share `createRedisCacheStore(redis)`; build `new ParleyServerX()` or `new ParleyServer(options)`.',
    'Register with `mcp.tools(name)`; throw a `TypeError`; `client.callTool(name)` returns it.',
    'Spans carry `mcp.method.name`; the client is in `client.ts`; `ctx.requestContext.principal`.',
    '',
    '```ts',
    "import { ParleyServer, type Nope } from '@parley/server';",
    "import { Elicitation } from '@parley/forms/react';",
    "import { Gone } from '@parley/nowhere';",
    '```',
  ].join('\n');
  expect(problemsIn('page', page)).toEqual([
    "page:6: '@parley/server' exports no Nope",
    "page:6: there is no entry '@parley/nowhere'",
    'page:1: `ctx.samplingAnswer` is not a public member',
    'page:2: `createRedisCacheStore` is exported by no @parley package',
    'page:2: `ParleyServerX` is exported by no @parley package',
    'page:3: `mcp.tools` is not a public member',
  ]);
});

describe.each(markdownFiles())('%s', (path) => {
  test('names only exports and members that exist', () => {
    expect(problemsIn(path, readFileSync(`${repoRoot}${path}`, 'utf8')).join('\n')).toBe('');
  });
});
