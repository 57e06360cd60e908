import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/**
 * A downstream client written only with the raw MCP SDK v2: handshake era (`legacy`), where the
 * proxy's asks arrive as pushed requests, or pinned to 2026-07-28, where the SDK fulfils each
 * `InputRequiredResult` round from the same handlers and retries with the proxy's state.
 */

export type SdkEra = 'handshake' | 'modern';

export interface SdkDownstream {
  client: Client;
  /** The messages of the elicitations it was asked, in order. */
  asked: string[];
  close(): Promise<void>;
}

export async function sdkClient(
  url: string,
  era: SdkEra,
  answer: (message: string) => Record<string, unknown> = (message) => ({
    action: 'accept',
    content: { name: message === 'Where to?' ? 'Lisbon' : message === 'Purpose?' ? 'fun' : 'Ada' },
  }),
): Promise<SdkDownstream> {
  const asked: string[] = [];
  const client = new Client(
    { name: 'raw-sdk-client', version: '2.4.0' },
    {
      capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
      versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
    },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    if (request.params.mode === 'url') return { action: 'accept' };
    if (request.params.message.startsWith('When to')) {
      return { action: 'accept', content: { name: 'Friday' } };
    }
    return answer(request.params.message) as never;
  });
  client.setRequestHandler('sampling/createMessage', async (request) => {
    const first = request.params.messages[0]?.content as { text?: string } | undefined;
    return {
      role: 'assistant',
      content: { type: 'text', text: `summary of "${first?.text ?? '?'}"` },
      model: 'test',
    };
  });
  client.setRequestHandler('roots/list', async () => ({
    roots: [{ uri: 'file:///work', name: 'work' }],
  }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, asked, close: () => client.close() };
}
