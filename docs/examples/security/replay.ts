import type { InProcessServer } from '@parley/client';

/** Keeps the last request that carried a requestState, to send it again later. */
export function recording(
  server: InProcessServer,
): InProcessServer & { replay(): Promise<unknown> } {
  let last: { url: string; headers: Headers; body: string } | undefined;
  return {
    connect: (transport) => server.connect(transport),
    async fetch(request) {
      const body = await request.clone().text();
      if (body.includes('"requestState"'))
        last = { url: request.url, headers: request.headers, body };
      return server.fetch(request);
    },
    // #region replay
    async replay() {
      // The same answered round, byte for byte, a second time.
      const { url, headers, body } = last!;
      const response = await server.fetch(
        new Request(url, { method: 'POST', headers, body }),
      );
      const text = await response.text();
      const data = text.startsWith('{')
        ? text
        : text.slice(text.lastIndexOf('data: ') + 6);
      return JSON.parse(data) as unknown;
    },
    // #endregion replay
  };
}
