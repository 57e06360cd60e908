import { ParleyProxy } from '@parley/proxy';
import type { RunningServer } from '@parley/server';

export async function startProxy(
  upstream: string,
  port = 3001,
): Promise<RunningServer> {
  // #region proxy
  const proxy = new ParleyProxy({
    // An http(s) URL, or a stdio command: { command: 'node', args: ['server.js'] }
    upstream,
    // The era spoken upstream: 'auto' (default), 'modern' or 'handshake'.
    upstreamMode: 'auto',
    // How long a held upstream call waits for a modern client's next round.
    heldCallTimeoutMs: 600_000,
    server: {
      // The downstream ParleyServer's options. One key ring for every replica (and across
      // restarts): a round that reaches a proxy without its held call is told so clearly.
      requestStateSecurity: {
        keys: [process.env['REQUEST_STATE_KEY'] ?? ''],
      },
    },
  });
  // Lists what the upstream offers, then serves it: both eras, one endpoint.
  const running = await proxy.run({ transport: 'http', port });
  // #endregion proxy
  return running;
}
