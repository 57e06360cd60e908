/**
 * The three ways the Parley client reaches a server, all real: the `ParleyServer` instance in
 * this process, the fixture as a child process over stdio, and the same server over HTTP on
 * 127.0.0.1 (`mcp.run({ transport: 'http' })`).
 */
import { fileURLToPath } from 'node:url';

import type { ClientTarget } from '@parley/client';

import { createBothErasServer } from '../fixtures/bothErasServer.ts';

export type Via = 'in-process' | 'stdio' | 'http';

export interface OpenTarget {
  target: ClientTarget;
  close(): Promise<void>;
}

const main = fileURLToPath(new URL('../fixtures/bothErasServerMain.ts', import.meta.url));

/** The fixture server reached `via` one transport. */
export async function openTarget(via: Via): Promise<OpenTarget> {
  switch (via) {
    case 'in-process':
      return { target: createBothErasServer(), close: async () => {} };
    case 'stdio':
      return {
        target: {
          command: process.execPath,
          args: ['--conditions=@parley/source', '--import', 'tsx', main],
        },
        close: async () => {},
      };
    case 'http': {
      const running = await createBothErasServer().run({
        transport: 'http',
        host: '127.0.0.1',
        port: 0,
      });
      if (running.url === undefined) throw new Error('run({ transport: "http" }) returned no url');
      return { target: running.url, close: () => running.close() };
    }
  }
}

/** The text of a result's content blocks. */
export function textOf(result: { content: readonly unknown[] }): string {
  return result.content.map((block) => (block as { text?: string }).text ?? '').join('');
}
