import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Runs a TypeScript file of this package in a real Node child process: tsx's loader for the
// TypeScript, the `@parley/source` condition so the package resolves to its source.
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export const packageRoot: string = fileURLToPath(new URL('..', import.meta.url));

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export function runTs(
  file: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=@parley/source', '--import', tsxLoader, file, ...args],
      { cwd: packageRoot, env: { ...process.env, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
