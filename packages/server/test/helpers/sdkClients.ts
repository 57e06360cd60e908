/**
 * Real MCP SDK v2 clients connected to a Parley server, in either era, in-process or over stdio
 * (the server as a real child process). Every server→client request the client answers is
 * recorded, so tests can assert exactly what the client saw.
 */
import { fileURLToPath } from 'node:url';

import {
  Client,
  InMemoryTransport,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import type { ClientCapabilities, CreateMessageResult, ElicitResult, Root } from '@parley/core';
import type { ParleyServer } from '../../src/index.ts';

export type TestEra = 'handshake' | 'modern';
export type TestVia = 'in-process' | 'stdio';

export interface SeenRequest {
  method: string;
  params: Record<string, unknown>;
}

export interface ScriptedAnswers {
  elicit?: (params: Record<string, unknown>) => ElicitResult | Promise<ElicitResult>;
  sample?: (params: Record<string, unknown>) => CreateMessageResult;
  roots?: Root[];
}

export interface ConnectedClient {
  client: Client;
  seen: SeenRequest[];
  close(): Promise<void>;
}

const seedServerMain = fileURLToPath(new URL('../fixtures/seedServerMain.ts', import.meta.url));

/** The command that runs a TypeScript fixture as a real process with workspace sources. */
export function tsNodeCommand(script: string): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: ['--conditions=@parley/source', '--import', 'tsx', script],
  };
}

function capabilitiesFor(answers: ScriptedAnswers): ClientCapabilities {
  return {
    ...(answers.elicit ? { elicitation: { form: {}, url: {} } } : {}),
    ...(answers.sample ? { sampling: {} } : {}),
    ...(answers.roots ? { roots: { listChanged: true } } : {}),
  };
}

export async function connectSdkClient(options: {
  era: TestEra;
  via: TestVia;
  server?: ParleyServer;
  answers?: ScriptedAnswers;
  capabilities?: ClientCapabilities;
}): Promise<ConnectedClient> {
  const answers = options.answers ?? {};
  const seen: SeenRequest[] = [];
  const client = new Client(
    { name: 'sdk-test-client', version: '1.0.0' },
    {
      capabilities: (options.capabilities ?? capabilitiesFor(answers)) as never,
      ...(options.era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  if (answers.elicit) {
    const elicit = answers.elicit;
    client.setRequestHandler('elicitation/create', async (request) => {
      seen.push({ method: request.method, params: stripMeta(request.params) });
      return (await elicit(request.params as Record<string, unknown>)) as never;
    });
  }
  if (answers.sample) {
    const sample = answers.sample;
    client.setRequestHandler('sampling/createMessage', async (request) => {
      seen.push({ method: request.method, params: stripMeta(request.params) });
      return sample(request.params as Record<string, unknown>) as never;
    });
  }
  if (answers.roots) {
    const roots = answers.roots;
    client.setRequestHandler('roots/list', async (request) => {
      seen.push({ method: request.method, params: stripMeta(request.params ?? {}) });
      return { roots } as never;
    });
  }

  let closeServer = async (): Promise<void> => {};
  if (options.via === 'stdio') {
    const { command, args } = tsNodeCommand(seedServerMain);
    await client.connect(new StdioClientTransport({ command, args, stderr: 'inherit' }));
  } else if (options.era === 'handshake') {
    if (options.server === undefined) throw new TypeError('an in-process client needs a server');
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const sdkServer = await options.server.connect(serverSide);
    closeServer = () => sdkServer.close();
    await client.connect(clientSide);
  } else {
    const server = options.server;
    if (server === undefined) throw new TypeError('an in-process client needs a server');
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://parley.test/mcp'), {
        fetch: (input, init) => server.fetch(new Request(input, init)),
      }),
    );
  }
  return {
    client,
    seen,
    close: async () => {
      await client.close();
      await closeServer();
    },
  };
}

/** Request params without `_meta`, which carries per-request noise (envelope, progress token). */
function stripMeta(params: unknown): Record<string, unknown> {
  const { _meta: _ignored, ...rest } = (params ?? {}) as Record<string, unknown>;
  return rest;
}

/** The text of a result's first content block. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((block) => block.text ?? '').join('');
}
