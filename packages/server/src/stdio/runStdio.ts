import { serveStdio } from '@modelcontextprotocol/server/stdio';

import { loadSessionServer } from '../handshake/load.ts';
import type { ModernDispatcher } from '../modern/dispatcher.ts';
import type { ServerRuntime } from '../runtime/serverRuntime.ts';
import { LineTransport } from './lineTransport.ts';
import { ModernStdioRouter } from './modernStdio.ts';

/**
 * `run({ transport: 'stdio' })`: both eras over this process's stdin and stdout. Loaded only
 * when a server runs over stdio (an HTTP server never reads it, nor the SDK's stdio code).
 * Handshake-era traffic goes to an SDK session; modern requests to Parley's dispatcher.
 */
export async function runStdio(
  runtime: ServerRuntime,
  dispatcher: ModernDispatcher,
): Promise<{ close(): Promise<void> }> {
  const { buildSessionServer } = await loadSessionServer();
  const handle = serveStdio(() => buildSessionServer(runtime), {
    transport: new ModernStdioRouter(new LineTransport(process.stdin, process.stdout), dispatcher),
  });
  return {
    close: async () => {
      // This process's tasks end now, saying why, not when another replica's lease check
      // notices.
      await runtime.tasks.close();
      await handle.close();
    },
  };
}
