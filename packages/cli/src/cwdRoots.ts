import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';

import type { Root } from '@parley/core';

import type { RootsProvider } from '@parley/client';
import type { PromptLog } from './prompter.ts';

/** The directory `parley` runs in, as the one root it offers. */
export function cwdRoot(cwd: string): Root {
  // `basename('/')` is empty; a root's name is for people, so fall back to the path.
  return { uri: pathToFileURL(cwd).href, name: basename(cwd) || cwd };
}

/**
 * Answers `roots/list` with the working directory, and says so, since it is shared unasked.
 * `queue` keeps the line from being drawn into the middle of an open prompt.
 */
export function cwdRoots(
  cwd: string,
  log: PromptLog,
  queue: <T>(task: () => Promise<T>) => Promise<T>,
): RootsProvider {
  return () =>
    queue(async () => {
      const root = cwdRoot(cwd);
      log.info(`Sharing the current directory as a root: ${root.uri}`);
      return [root];
    });
}
