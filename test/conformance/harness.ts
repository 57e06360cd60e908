/**
 * Running the official conformance suite (`@modelcontextprotocol/conformance`, pinned in this
 * package) from tests, and reading what it found. The suite needs Node 22, which
 * `@parley/node22` finds; only the harness runs on it, the project itself stays on Node 20.
 *
 * Verdicts come from the results the suite writes (`checks.json` per scenario), not from its
 * exit code alone: a scored scenario passes when it ran, has a successful check, and has no
 * check that failed or warned.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { delimiter, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { node22BinDir } from '@parley/node22';
import { parse } from 'yaml';

const packageDir = fileURLToPath(new URL('.', import.meta.url));
const binDir = join(packageDir, 'node_modules', '.bin');
const suiteDir = join(packageDir, 'node_modules', '@modelcontextprotocol', 'conformance');

export interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  description?: string;
  errorMessage?: string;
}

/** One scenario as the suite recorded it. */
export interface ScenarioResult {
  checks: Check[];
  /** Client scenarios: what the client under test wrote to stderr. */
  stderr: string;
}

export interface HarnessRun {
  exitCode: number;
  output: string;
  /** Every scenario that wrote results, by name (`auth/…` names keep their slash). */
  results: Map<string, ScenarioResult>;
}

/** Run `conformance <args>` on Node 22 and collect the results it wrote to `outputDir`. */
export async function runConformance(
  args: string[],
  outputDir: string,
  timeoutMs: number,
): Promise<HarnessRun> {
  const child = spawn(join(binDir, 'conformance'), [...args, '-o', outputDir], {
    env: { ...process.env, PATH: [node22BinDir(), binDir, process.env.PATH ?? ''].join(delimiter) },
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
  return { exitCode, output, results: readResults(outputDir) };
}

/** Result directories are `[server-]<scenario>-<ISO timestamp>`, `auth/` ones one level down. */
function readResults(outputDir: string): Map<string, ScenarioResult> {
  const results = new Map<string, ScenarioResult>();
  const visit = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (!statSync(path).isDirectory()) continue;
      const checks = join(path, 'checks.json');
      if (!existsSync(checks)) {
        visit(path);
        continue;
      }
      const scenario = relative(outputDir, path)
        .replace(/^server-/, '')
        .replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
      const stderr = join(path, 'stderr.txt');
      results.set(scenario, {
        checks: JSON.parse(readFileSync(checks, 'utf8')) as Check[],
        stderr: existsSync(stderr) ? readFileSync(stderr, 'utf8') : '',
      });
    }
  };
  visit(outputDir);
  return results;
}

/** A revision's frozen requirement set, as the pinned suite ships it. */
export interface Requirements {
  server: string[];
  client: string[];
  notScored: { scenario: string; leg: 'server' | 'client'; reason: string }[];
}

export function requirementsOf(revision: string): Requirements {
  const file = join(suiteDir, 'requirements', `${revision}.yaml`);
  const parsed = parse(readFileSync(file, 'utf8')) as {
    server?: string[];
    client?: string[];
    not_scored?: Requirements['notScored'];
  };
  return {
    server: parsed.server ?? [],
    client: parsed.client ?? [],
    notScored: parsed.not_scored ?? [],
  };
}

/** A check that failed or warned, with where it was. */
export interface Problem {
  scenario: string;
  id: string;
  status: Check['status'];
  message: string;
}

/** What a run says about a set of scenarios it was meant to score. */
export interface Verdict {
  /** Scenarios that ran with a successful check and nothing failed or warned. */
  passed: string[];
  /** Scenarios that were meant to run and wrote no results. */
  missing: string[];
  /** Every failed or warned check of a scored scenario. */
  problems: Problem[];
}

export function problemsOf(scenario: string, checks: Check[]): Problem[] {
  return checks
    .filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')
    .map((check) => ({
      scenario,
      id: check.id,
      status: check.status,
      message: check.errorMessage ?? check.description ?? '',
    }));
}

export function verdictOf(run: HarnessRun, scored: readonly string[]): Verdict {
  const verdict: Verdict = { passed: [], missing: [], problems: [] };
  for (const scenario of scored) {
    const result = run.results.get(scenario);
    if (result === undefined) {
      verdict.missing.push(scenario);
      continue;
    }
    const problems = problemsOf(scenario, result.checks);
    const succeeded = result.checks.some((check) => check.status === 'SUCCESS');
    if (!succeeded && problems.length === 0) {
      problems.push({ scenario, id: '-', status: 'FAILURE', message: 'no check succeeded' });
    }
    verdict.problems.push(...problems);
    if (problems.length === 0) verdict.passed.push(scenario);
  }
  return verdict;
}

/** Every check's status, counted, for the test log and the closing note. */
export function tally(results: Map<string, ScenarioResult>): {
  scenarios: number;
  passed: number;
  failed: number;
  warnings: number;
} {
  let passed = 0;
  let failed = 0;
  let warnings = 0;
  for (const { checks } of results.values()) {
    for (const check of checks) {
      if (check.status === 'SUCCESS') passed++;
      else if (check.status === 'FAILURE') failed++;
      else if (check.status === 'WARNING') warnings++;
    }
  }
  return { scenarios: results.size, passed, failed, warnings };
}
