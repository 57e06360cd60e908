import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

import { sleep } from './harness.ts';

/**
 * The clients of the load-balancer tests: book_flight flows of both eras through a balancer,
 * with every request and every failure counted (a transport error, or a 5xx), and the load
 * loop that runs them until told to stop.
 */

export interface Figures {
  requests: number;
  /** Requests that failed in transport, or with a 5xx (Parley's carry a JSON-RPC error). */
  failedRequests: { what: string; phase: string; jsonRpc: boolean }[];
  modernFlows: number;
  handshakeFlows: number;
  failedFlows: string[];
  /** Handshake sessions a drain ended, reopened by the client (on another replica). */
  sessionsReopened: number;
  /** How long the slowest failure of a handshake-era call took to arrive (never a hang). */
  slowestSessionFailureMs: number;
  /** Rounds that failed during the SIGKILL and completed when retried with the same state. */
  roundsRetried: number;
}

export function newFigures(): Figures {
  return {
    requests: 0,
    failedRequests: [],
    modernFlows: 0,
    handshakeFlows: 0,
    failedFlows: [],
    sessionsReopened: 0,
    slowestSessionFailureMs: 0,
    roundsRetried: 0,
  };
}

export const answers: Record<string, Record<string, unknown>> = {
  destination: { destination: 'Lisbon' },
  date: { date: '2026-09-01' },
  passenger: { passenger: 'Ada Lovelace', confirm: true },
};

export const BOOKED = /^Booked BK-\d+: Ada Lovelace to Lisbon on 2026-09-01$/;

interface ModernReply {
  result?: {
    resultType?: string;
    requestState?: string;
    inputRequests?: Record<string, unknown>;
    content?: { text: string }[];
  };
  error?: { code: number; message: string };
}

/** The clients of one test, counting into `figures`; `phase` names what the test is doing. */
export class Clients {
  phase = 'start';
  readonly figures: Figures;
  readonly #trace: (line: string) => void;
  #nextId = 1;

  constructor(figures: Figures, trace: (line: string) => void = () => {}) {
    this.figures = figures;
    this.#trace = trace;
  }

  /** fetch, counting every request and every failure: a transport error or a 5xx. */
  readonly counted = async (input: string | URL | Request, init?: RequestInit) => {
    this.figures.requests++;
    try {
      const response = await fetch(input, init);
      if (response.status >= 500) {
        // Parley's 5xx carry a JSON-RPC error, a balancer's own an HTML page: the body says whose.
        const body = (await response.clone().text()).slice(0, 200);
        this.figures.failedRequests.push({
          what: `HTTP ${response.status}: ${body}`,
          phase: this.phase,
          jsonRpc: body.startsWith('{"jsonrpc"'),
        });
        this.#trace(`${response.status} ${JSON.stringify([...response.headers])} ${body}`);
      }
      return response;
    } catch (error) {
      // An abort is the client cancelling its own request (the SDK client closing its GET
      // stream), not a failure of the fleet.
      if ((error as Error).name !== 'AbortError') {
        this.figures.failedRequests.push({
          what: String((error as Error).cause ?? error),
          phase: this.phase,
          jsonRpc: false,
        });
      }
      throw error;
    }
  };

  roundRequest(round: { inputResponses?: unknown; requestState?: string }): RequestInit {
    return {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'book_flight',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: this.#nextId++,
        method: 'tools/call',
        params: {
          name: 'book_flight',
          arguments: {},
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
          },
          ...round,
        },
      }),
    };
  }

  async modernRound(
    url: string,
    round: { inputResponses?: unknown; requestState?: string },
  ): Promise<ModernReply> {
    const response = await this.counted(url, this.roundRequest(round));
    return (await response.json()) as ModernReply;
  }

  /**
   * One book_flight flow of three rounds. `retry`: a round that fails in transport or with a
   * 5xx is sent again with the same state (what a client does when a replica dies under it).
   */
  async modernFlow(url: string, retry: boolean): Promise<string> {
    let round: { inputResponses?: unknown; requestState?: string } = {};
    for (let n = 0; n < 4; n++) {
      let reply: ModernReply | undefined;
      for (let attempt = 0; reply === undefined; attempt++) {
        try {
          reply = await this.modernRound(url, round);
        } catch (error) {
          if (!retry || attempt >= 10) throw error;
          this.figures.roundsRetried++;
          await sleep(200);
        }
      }
      if (reply.error !== undefined) throw new Error(`round ${n + 1}: ${reply.error.message}`);
      const result = reply.result!;
      if (result.resultType !== 'input_required') return result.content?.[0]?.text ?? '';
      round = {
        requestState: result.requestState,
        inputResponses: Object.fromEntries(
          Object.keys(result.inputRequests ?? {}).map((key) => [
            key,
            { action: 'accept', content: answers[key] },
          ]),
        ),
      };
    }
    throw new Error('book_flight asked more than three rounds');
  }

  /**
   * One handshake-era flow: a session, book_flight with its three ctx.elicit-style questions. A
   * drain ends the session (its waiting call gets a JSON-RPC error, or the session is unknown
   * once the replica is gone): the client opens a new one, which the balancer sends to a
   * replica that is up. How long each such failure took to arrive is kept: never a hang.
   */
  async handshakeFlow(url: string): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const client = new Client(
        { name: 'lb-handshake', version: '1' },
        { capabilities: { elicitation: { form: {} } } },
      );
      client.onerror = () => {}; // the GET stream of a drained replica ends; the call says how
      client.setRequestHandler('elicitation/create', (request) => {
        const message = String(request.params.message);
        const key = message.startsWith('Where')
          ? 'destination'
          : message.startsWith('When')
            ? 'date'
            : 'passenger';
        return { action: 'accept', content: answers[key] as never };
      });
      const transport = new StreamableHTTPClientTransport(new URL(url), {
        fetch: this.counted as typeof fetch,
      });
      const started = Date.now();
      try {
        await client.connect(transport);
        const result = await client.callTool({ name: 'book_flight', arguments: {} });
        const text = (result.content as { text: string }[])[0]?.text ?? '';
        await transport.terminateSession().catch(() => {});
        return text;
      } catch (error) {
        const message = String(error);
        this.#trace(
          `handshake flow failed after ${Date.now() - started} ms: ${message.slice(0, 160)}`,
        );
        this.figures.slowestSessionFailureMs = Math.max(
          this.figures.slowestSessionFailureMs,
          Date.now() - started,
        );
        if (attempt >= 5 || !/shutting down|Session not found|session/i.test(message)) throw error;
        this.figures.sessionsReopened++;
        // As a client told "Retry-After: 1" would: the balancer needs a moment to see the
        // replica go.
        await sleep(200 * (attempt + 1));
      } finally {
        await client.close().catch(() => {});
      }
    }
  }
}

/** Run `flow` in a loop until `running()` turns false, counting successes and failures. */
export async function loop(
  clients: Clients,
  running: () => boolean,
  flow: () => Promise<string>,
  count: () => void,
): Promise<void> {
  while (running()) {
    try {
      const text = await flow();
      if (!BOOKED.test(text)) throw new Error(`unexpected booking: ${text}`);
      count();
    } catch (error) {
      clients.figures.failedFlows.push(`${clients.phase}: ${String(error)}`);
    }
  }
}
