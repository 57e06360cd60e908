import { Client, type ClientOptions, type StdioServerCommand } from '@parley/client';
import { checkOptionKeys, optionKeys, type Era } from '@parley/core';
import type { ParleyServer } from '@parley/server';

import type { ScriptedUser } from './scriptedUser.ts';

/**
 * One test body against both protocol eras and every transport: the server in this process, as
 * a child process over stdio, and over HTTP on 127.0.0.1. Each cell of the matrix connects a
 * Parley client in its era over its transport (and checks it got that era), so a test written
 * once proves the server works for every client it will meet.
 */

/** How a cell reaches the server. */
export type MatrixTransport = 'in-process' | 'stdio' | 'http';

const ERAS: readonly Era[] = ['modern', 'handshake'];
const TRANSPORTS: readonly MatrixTransport[] = ['in-process', 'stdio', 'http'];

/** Options of {@link eraMatrix}. */
export interface EraMatrixOptions {
  /** Builds a fresh server; called for every in-process and HTTP connection. */
  server: () => ParleyServer;
  /**
   * How to start the same server as a child process speaking stdio. Without it the matrix has
   * no stdio cells (asking for them in `transports` is an error).
   */
  stdio?: StdioServerCommand;
  /** The eras to cover. Default both. */
  eras?: readonly Era[];
  /** The transports to cover. Default all: in-process, stdio (when `stdio` is given), HTTP. */
  transports?: readonly MatrixTransport[];
}

/** What a cell's `connect` takes: who answers, and any other client option but the era. */
export interface MatrixConnectOptions extends Omit<
  ClientOptions,
  'mode' | 'elicitationHandler' | 'samplingHandler' | 'roots'
> {
  /** The scripted user behind the client; without one, the client declares nothing to answer. */
  user?: ScriptedUser;
}

/** A client connected by a cell; closing it also stops what the cell started. */
export interface MatrixConnection extends AsyncDisposable {
  client: Client;
  era: Era;
  transport: MatrixTransport;
  close(): Promise<void>;
}

/** One era over one transport. */
export interface MatrixCell {
  era: Era;
  transport: MatrixTransport;
  /** For test names: `'modern over http'`. */
  name: string;
  /** Connect a Parley client in this era over this transport. */
  connect(options?: MatrixConnectOptions): Promise<MatrixConnection>;
}

const MATRIX_OPTIONS = optionKeys<EraMatrixOptions>()(['server', 'stdio', 'eras', 'transports']);

/** A cell's client options: who answers, and every client option the cell does not set itself. */
const CONNECT_OPTIONS = optionKeys<MatrixConnectOptions>()(
  [
    'user',
    'clientInfo',
    'maxRounds',
    'timeoutMs',
    'onRound',
    'onElicitationComplete',
    'onWarning',
    'onListChanged',
    'auth',
    'headers',
    'fetch',
    'tasks',
    'extensions',
    'telemetry',
  ],
  {
    mode: 'each cell connects in its own era; pick cells with eraMatrix({ eras })',
    elicitationHandler: 'give a scripted user instead (user: scriptedUser().answer(…))',
    samplingHandler: 'give a scripted user instead (user: scriptedUser().sample(…))',
    roots: 'give a scripted user instead (user: scriptedUser().roots(…))',
  },
);

function checkOptions(options: EraMatrixOptions): void {
  if (typeof options !== 'object' || options === null || typeof options.server !== 'function') {
    throw new TypeError('eraMatrix: options.server must be a function that builds the server.');
  }
  checkOptionKeys('eraMatrix', 'options', options, MATRIX_OPTIONS);
  for (const era of options.eras ?? []) {
    if (!ERAS.includes(era)) throw new TypeError(`eraMatrix: unknown era ${JSON.stringify(era)}.`);
  }
  for (const transport of options.transports ?? []) {
    if (!TRANSPORTS.includes(transport)) {
      throw new TypeError(`eraMatrix: unknown transport ${JSON.stringify(transport)}.`);
    }
    if (transport === 'stdio' && options.stdio === undefined) {
      throw new TypeError('eraMatrix: the stdio transport needs options.stdio (the command).');
    }
  }
}

/** Start what `transport` needs and say how to reach it and how to stop it. */
async function openTarget(
  options: EraMatrixOptions,
  transport: MatrixTransport,
): Promise<{ target: ConstructorParameters<typeof Client>[0]; stop: () => Promise<void> }> {
  switch (transport) {
    case 'in-process':
      return { target: options.server(), stop: async () => {} };
    case 'stdio':
      return { target: options.stdio as StdioServerCommand, stop: async () => {} };
    case 'http': {
      const running = await options.server().run({ transport: 'http', host: '127.0.0.1', port: 0 });
      return { target: running.url as string, stop: () => running.close() };
    }
  }
}

function cell(options: EraMatrixOptions, era: Era, transport: MatrixTransport): MatrixCell {
  const name = `${era} over ${transport}`;
  return {
    era,
    transport,
    name,
    toString: () => name,
    async connect(connectOptions: MatrixConnectOptions = {}) {
      checkOptionKeys('connect', 'options', connectOptions, CONNECT_OPTIONS);
      const { user, ...clientOptions } = connectOptions;
      const { target, stop } = await openTarget(options, transport);
      const client = new Client(target, {
        ...clientOptions,
        ...user?.clientOptions(),
        mode: era,
      });
      try {
        await client.connect();
        if (client.era !== era) {
          throw new Error(`eraMatrix: ${name} connected in the ${String(client.era)} era.`);
        }
      } catch (error) {
        await client.close().catch(() => {});
        await stop();
        throw error;
      }
      const close = async (): Promise<void> => {
        try {
          await client.close();
        } finally {
          await stop();
        }
      };
      return { client, era, transport, close, [Symbol.asyncDispose]: close };
    },
  } as MatrixCell;
}

/**
 * The cells to run one test body in: every era × transport asked for. Use it with your test
 * runner's table form, e.g. `describe.each(eraMatrix({ server }))('$name', (cell) => …)`.
 */
export function eraMatrix(options: EraMatrixOptions): MatrixCell[] {
  checkOptions(options);
  const eras = options.eras ?? ERAS;
  const transports =
    options.transports ??
    TRANSPORTS.filter((transport) => transport !== 'stdio' || options.stdio !== undefined);
  return eras.flatMap((era) => transports.map((transport) => cell(options, era, transport)));
}
