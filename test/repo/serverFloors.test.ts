import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, test } from 'vitest';

import { serverFloors, serverSource } from '../../scripts/serverFloors.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const depcruise = join(repoRoot, 'node_modules/.bin/depcruise');
const config = join(repoRoot, '.dependency-cruiser.mjs');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The cruiser over `targets`, from `cwd`: its exit status and what it printed. */
function cruise(cwd: string, targets: string[]): { status: number; output: string } {
  try {
    const output = execFileSync(depcruise, ['--config', config, ...targets], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { status: 0, output };
  } catch (error) {
    const failed = error as { status: number; stdout: string; stderr: string };
    return { status: failed.status, output: `${failed.stdout}${failed.stderr}` };
  }
}

describe("@parley/server's floors", () => {
  test('every source file stands in exactly one room of one floor', () => {
    const rooms = serverFloors.flatMap((floor) => floor.rooms);
    const homeless = sourceFiles(join(repoRoot, serverSource)).flatMap((file) => {
      const path = relative(join(repoRoot, serverSource), file);
      const homes = rooms.filter((room) => path === room || path.startsWith(`${room}/`));
      return homes.length === 1 ? [] : [`${path}: ${homes.length} rooms`];
    });
    expect(homeless).toEqual([]);
  });

  test('the repository has no import cycle and no import up a floor (pnpm deps)', () => {
    const { status, output } = cruise(repoRoot, [
      'packages',
      'apps',
      'bench',
      'docs',
      'test',
      'scripts',
    ]);
    expect(output).toMatch(/no dependency violations found/);
    expect(status).toBe(0);
  });
});

describe('packages/server/ARCHITECTURE.md', () => {
  const serverRoot = join(repoRoot, 'packages/server');
  const text = readFileSync(join(serverRoot, 'ARCHITECTURE.md'), 'utf8');

  test('every file it names exists', () => {
    // `room/file.ts` names a source file; a bare `file.ts` (index.ts, tsdown.config.ts) lives in
    // src/ or beside the package.json; `scripts/…` is the repository's.
    const named = [
      ...new Set([...text.matchAll(/`([\w./-]+\.(?:ts|js|mjs))`/g)].map((m) => m[1]!)),
    ];
    expect(named.length).toBeGreaterThan(40);
    const missing = named.filter(
      (path) =>
        ![join(serverRoot, 'src', path), join(serverRoot, path), join(repoRoot, path)].some(
          (candidate) => existsSync(candidate),
        ),
    );
    expect(missing).toEqual([]);
    const linked = [...text.matchAll(/\]\(([^)#]+)\)/g)].map((m) => m[1]!);
    expect(linked.filter((path) => !existsSync(join(serverRoot, path)))).toEqual([]);
  });

  test('its table lists the floors of scripts/serverFloors.js, top to bottom, with their rooms', () => {
    const rows = [...text.matchAll(/^\| \d+\. (\w+) +\| ([^|]+)\|/gm)].map((m) => ({
      name: m[1],
      rooms: [...m[2]!.matchAll(/`([\w.]+?)\/?`/g)].map((room) => room[1]),
    }));
    expect(rows).toEqual(
      [...serverFloors].reverse().map((floor) => ({ name: floor.name, rooms: [...floor.rooms] })),
    );
  });
});

describe('the check refuses', () => {
  // A scratch repository with the same layout: the rules are anchored at packages/server/src.
  const scratch = mkdtempSync(join(tmpdir(), 'parley-floors-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    writeFileSync(join(scratch, path), text);
  };
  copyFileSync(join(repoRoot, 'tsconfig.base.json'), join(scratch, 'tsconfig.base.json'));
  write(
    'packages/server/src/handler/context.ts',
    "import { serve } from '../round/serve.ts';\nexport const run = serve;\n",
  );
  write('packages/server/src/round/serve.ts', 'export const serve = 1;\n');
  write(
    'packages/server/src/modern/dispatch.ts',
    "import type { Session } from '../handshake/session.ts';\nexport type Dispatch = Session;\n",
  );
  write('packages/server/src/handshake/session.ts', 'export type Session = 1;\n');
  write('packages/core/src/a.ts', "import type { B } from './b.ts';\nexport type A = B;\n");
  write('packages/core/src/b.ts', "import type { A } from './a.ts';\nexport type B = A | 1;\n");
  const { status, output } = cruise(scratch, ['packages']);

  test('fails', () => {
    expect(status).not.toBe(0);
  });

  test('an import up a floor, naming both files', () => {
    expect(output).toContain(
      'server-floor-handler: packages/server/src/handler/context.ts → packages/server/src/round/serve.ts',
    );
  });

  test('an import between two rooms of one floor, naming both files', () => {
    expect(output).toContain(
      'server-room-modern: packages/server/src/modern/dispatch.ts → packages/server/src/handshake/session.ts',
    );
  });

  test('a cycle of type-only imports, naming its files', () => {
    expect(output).toMatch(/no-cycle: packages\/core\/src\/a\.ts → \s*packages\/core\/src\/b\.ts/);
  });
});
