import { fileURLToPath } from 'node:url';

import type { StdioServerCommand } from '@parley/client';

/** The repository root, where `tsx` runs the TypeScript fixtures from. */
export const repoRoot: string = fileURLToPath(new URL('../../../..', import.meta.url));

/** How to run a TypeScript entry of the repository from source. */
export const NODE_FROM_SOURCE: string[] = ['--conditions=@parley/source', '--import', 'tsx'];

/** The raw SDK's handshake-era stdio server, as the command the proxy starts. */
export function sdkHandshakeStdio(): StdioServerCommand {
  return {
    command: process.execPath,
    args: [
      ...NODE_FROM_SOURCE,
      fileURLToPath(new URL('../fixtures/sdkHandshakeStdio.ts', import.meta.url)),
    ],
    cwd: repoRoot,
  };
}
