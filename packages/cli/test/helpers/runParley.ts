import { expect } from 'vitest';

import { runCli } from '../../src/runCli.ts';
import { repoRoot } from './demoApps.ts';
import { scriptedPrompter, type ScriptedAnswer } from './scriptedPrompter.ts';

/**
 * `parley …` with a scripted person: the whole command, from the command line to the exit code,
 * against real servers. Every scripted answer must be used.
 */
export interface ParleyRun {
  code: number;
  stdout: string;
  stderr: string;
  /** What the prompts drew, a line each (see `scriptedPrompter`). */
  screen: string[];
}

export async function parley(
  argv: string[],
  answers: ScriptedAnswer[] = [],
  options: { interactive?: boolean; signal?: AbortSignal; validates?: boolean } = {},
): Promise<ParleyRun> {
  const { validates, ...io } = options;
  const prompter = scriptedPrompter(answers, validates !== undefined ? { validates } : {});
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    prompter,
    cwd: repoRoot,
    ...io,
  });
  expect(prompter.remaining, 'every scripted answer was used').toEqual([]);
  return { code, stdout, stderr, screen: prompter.screen };
}
