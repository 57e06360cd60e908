/**
 * Where Parley's modern server CPU goes: a CPU profile of the server process over a window of
 * load (after warm-up), its frames placed through the shipped source maps (the server's build
 * carries several packages in one chunk) and summed by category and by function.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ask, start, stop, type Kind, type LoadClient } from './harness.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

const sourceMaps = new Map<string, SourceMap | undefined>();

/**
 * Where a profiled frame of Parley's built code came from, through the map shipped beside the
 * file: the server's build carries several packages in one chunk, so the file alone says little.
 */
function originalPosition(
  url: string,
  line: number,
  column: number,
): { source: string; line: number } | undefined {
  if (!sourceMaps.has(url)) {
    let map: SourceMap | undefined;
    try {
      const path = fileURLToPath(url);
      map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')) as SourceMapPayload);
    } catch {
      map = undefined;
    }
    sourceMaps.set(url, map);
  }
  const entry = sourceMaps.get(url)?.findEntry(line, column);
  return entry !== undefined && 'originalSource' in entry
    ? { source: new URL(entry.originalSource, url).href, line: entry.originalLine }
    : undefined;
}

/** A frame's place: for Parley's built code, the source file and line it was built from. */
function placeOf({ url, lineNumber, columnNumber }: ProfileNode['callFrame']): string {
  const original =
    url.includes('/packages/') || url.includes('@parley/')
      ? originalPosition(url, lineNumber, columnNumber)
      : undefined;
  if (original !== undefined) {
    return `${original.source.replace(/^.*\/packages\//, '')}:${original.line + 1}`;
  }
  const where = url.replace(/^.*\/(node_modules|packages)\//, '').replace(/^file:\/\//, '');
  return url ? `${where}:${lineNumber + 1}` : where;
}

function category(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(idle)' || functionName === '(program)' || functionName === '(root)')
    return 'idle / runtime';
  if (url.includes('/packages/') || url.includes('@parley/')) {
    const source = placeOf(node.callFrame);
    if (source.startsWith('state-sealing/')) return 'Parley: sealing';
    if (/^server\/src\/(http|modern)\//.test(source))
      return 'Parley: node:http, endpoint, modern dispatcher';
    if (source.startsWith('server/')) return 'Parley: round pipeline, context, answers';
    return 'Parley: schema, core, middleware';
  }
  if (url.includes('zod')) return 'zod';
  if (url.includes('modelcontextprotocol')) return 'SDK';
  if (url.includes('undici')) return 'fetch (undici) Request/Response';
  if (url.startsWith('node:') || url === '') return 'Node: sockets, HTTP parsing, crypto, builtins';
  return 'other';
}

function summariseProfile(file: string, profileMs: number, top: number): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    if (node === undefined) return;
    const key = category(node);
    if (key === 'idle / runtime') return;
    const micros = profile.timeDeltas[index] ?? 0;
    busy += micros;
    totals.set(key, (totals.get(key) ?? 0) + micros);
    const name = `${node.callFrame.functionName || '(anonymous)'} ${placeOf(node.callFrame)}`;
    functions.set(name, (functions.get(name) ?? 0) + micros);
  });
  console.log(
    `\nwhere Parley’s modern server CPU goes (a ${profileMs} ms profiled run of its own, excluding idle):`,
  );
  for (const [key, micros] of [...totals].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${key.padEnd(48)} ${((100 * micros) / busy).toFixed(1).padStart(5)} %`);
  }
  console.log('  top functions (self time):');
  for (const [name, micros] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`    ${((100 * micros) / busy).toFixed(1).padStart(5)} %  ${name}`);
  }
}

/** Profile `kind` under `concurrency` modern flows for `profileMs`, and print the summary. */
export async function profileModern(
  client: LoadClient,
  options: { kind: Kind; concurrency: number; warmMs: number; profileMs: number; top: number },
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
  const file = join(dir, 'server.cpuprofile');
  const { child, url } = await start(options.kind);
  await client.run(url, options.concurrency, options.warmMs);
  await ask(child, 'profile-start', 'profiling');
  await client.run(url, options.concurrency, options.profileMs);
  await ask(child, { profile: file }, 'profiled');
  await stop(child);
  summariseProfile(file, options.profileMs, options.top);
  rmSync(dir, { recursive: true, force: true });
}
