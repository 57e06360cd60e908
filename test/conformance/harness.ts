/**
 * Running the official conformance suite (`@modelcontextprotocol/conformance`, pinned in this
 * package) from tests. The suite needs Node 22, which this package installs as the `node@22`
 * npm package; only the harness runs on it, the project itself stays on Node 20.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('.', import.meta.url));
const binDir = join(packageDir, 'node_modules', '.bin');

export interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  errorMessage?: string;
}

export interface HarnessRun {
  exitCode: number;
  output: string;
  /** Every check of every scenario, by scenario. */
  checks: Map<string, Check[]>;
}

/** Run `conformance <args>` on Node 22 and collect the checks it wrote to `outputDir`. */
export async function runConformance(
  args: string[],
  outputDir: string,
  timeoutMs: number,
): Promise<HarnessRun> {
  const child = spawn(join(binDir, 'conformance'), [...args, '-o', outputDir], {
    env: { ...process.env, PATH: `${binDir}:${process.env.PATH ?? ''}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const exitCode = await new Promise<number>((resolve) =>
    child.on('close', (code) => resolve(code ?? -1)),
  );
  clearTimeout(timer);
  return { exitCode, output, checks: readChecks(outputDir) };
}

function readChecks(outputDir: string): Map<string, Check[]> {
  const checks = new Map<string, Check[]>();
  if (!existsSync(outputDir)) return checks;
  for (const entry of readdirSync(outputDir)) {
    const file = join(outputDir, entry, 'checks.json');
    if (!existsSync(file)) continue;
    // Directories are named `<kind>-<scenario>-<ISO timestamp>`.
    const scenario = entry.replace(/^(server|client)-/, '').replace(/-\d{4}-\d{2}-\d{2}T.*$/, '');
    checks.set(scenario, JSON.parse(readFileSync(file, 'utf8')) as Check[]);
  }
  return checks;
}

/** A one-line tally of a run, for the test log and the closing note. */
export function tally(checks: Map<string, Check[]>): {
  scenarios: number;
  passed: number;
  failed: number;
  warnings: number;
} {
  let passed = 0;
  let failed = 0;
  let warnings = 0;
  for (const list of checks.values()) {
    for (const check of list) {
      if (check.status === 'SUCCESS') passed++;
      else if (check.status === 'FAILURE') failed++;
      else if (check.status === 'WARNING') warnings++;
    }
  }
  return { scenarios: checks.size, passed, failed, warnings };
}
