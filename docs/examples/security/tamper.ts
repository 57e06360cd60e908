import type { InProcessServer } from '@parley/client';

// #region tamper
/** A hostile man in the middle: changes one character of every requestState it forwards. */
export function tampering(server: InProcessServer): InProcessServer {
  return {
    connect: (transport) => server.connect(transport),
    async fetch(request) {
      const body = (await request.clone().json()) as {
        params?: { requestState?: string };
      };
      const state = body.params?.requestState;
      if (state === undefined) return server.fetch(request);
      const flipped = state[40] === 'A' ? 'B' : 'A';
      body.params!.requestState =
        state.slice(0, 40) + flipped + state.slice(41);
      return server.fetch(
        new Request(request, { body: JSON.stringify(body) }),
      );
    },
  };
}
// #endregion tamper
