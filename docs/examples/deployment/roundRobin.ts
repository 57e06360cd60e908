// #region balancer
import type { InProcessServer } from '@parley/client';

/** A stand-in load balancer: each request goes to the next replica in turn. */
export function roundRobin(
  replicas: InProcessServer[],
): InProcessServer & { served: number[] } {
  let next = 0;
  const served: number[] = [];
  return {
    served, // which replica served each request
    fetch(request) {
      const index = next++ % replicas.length;
      served.push(index);
      return replicas[index]!.fetch(request);
    },
    // Handshake-era sessions are stateful: one replica holds each session (sticky routing).
    connect: (transport) => replicas[0]!.connect(transport),
  };
}
// #endregion balancer
