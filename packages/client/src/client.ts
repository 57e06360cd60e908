import {
  LATEST_HANDSHAKE_PROTOCOL_VERSION,
  UnsupportedProtocolVersionError,
  UrlElicitationRequiredError,
  isInputRequiredResult,
  type Era,
  type GetPromptResult,
  type ReadResourceResult,
} from '@parley/core';
import {
  SdkError,
  SdkErrorCode,
  type CallToolResult,
  type Prompt,
  type Resource,
  type ResourceTemplateType,
  type Tool,
} from '@modelcontextprotocol/client';

import { CallRegistry } from './callState.ts';
import { openConnection, type Connection, type ConnectionSetup } from './connection.ts';
import { toParleyError, unsupportedVersionData } from './errors.ts';
import { capabilitiesFor, createInputAnswerer, type InputAnswerer } from './inputAnswerer.ts';
import type { ModernRoundsContext } from './modernRounds.ts';
import {
  checkArguments,
  checkName,
  resolveCallOptions,
  resolveOptions,
  type ResolvedOptions,
} from './options.ts';
import { registerPushedRequests } from './pushedRequests.ts';
import { runCall, type Send } from './runCall.ts';
import { checkSingleRound, sendSingleRound, singleRoundLimits } from './singleRound.ts';
import { resolveTarget, type ResolvedTarget } from './targets.ts';
import { checkStructuredOutput, withoutOutputSchema } from './toolOutput.ts';
import { toToolCallResult } from './toolResults.ts';
import { ElicitationCompletions, completeUrlElicitations } from './urlElicitations.ts';
import type {
  CallInfo,
  CallOptions,
  ClientMode,
  ClientOptions,
  ClientTarget,
  RoundEvent,
  SingleRound,
  SingleRoundOptions,
  ToolCallResult,
} from './types.ts';
import { retryAfterUnsupportedVersion } from './versionRetry.ts';

/**
 * An MCP client that answers every question a server asks (elicitation, sampling, roots) from
 * the handlers it was given, in both protocol eras, and drives every round of a call itself:
 * `callTool`, `getPrompt` and `readResource` return the final result.
 *
 * @example
 * ```ts
 * // docs/examples/gettingStarted/client.ts#client
 * import { Client } from '@parley/client';
 *
 * // npx tsx client.ts [url] [--handshake]
 * const url =
 *   process.argv.find((arg) => arg.startsWith('http')) ??
 *   'http://127.0.0.1:3000/mcp';
 * const mode = process.argv.includes('--handshake') ? 'handshake' : 'auto';
 *
 * await using client = new Client(url, {
 *   mode,
 *   // Called for every question the server asks, in either era.
 *   elicitationHandler: async (message) => {
 *     console.log(`Server asks: ${message}`);
 *     return 'Ada';
 *   },
 * });
 * await client.connect();
 * console.log(
 *   `Connected: ${client.era} era, protocol ${client.protocolVersion}`,
 * );
 *
 * const result = await client.callTool('greet');
 * for (const block of result.content)
 *   if (block.type === 'text') console.log(block.text);
 * ```
 */
export class Client implements AsyncDisposable {
  readonly #target: ResolvedTarget;
  readonly #options: ResolvedOptions;
  readonly #answer: InputAnswerer;
  readonly #calls = new CallRegistry();
  readonly #completions = new ElicitationCompletions();
  #connection: Connection | undefined;
  #connecting: Promise<Connection> | undefined;
  #tools: Map<string, Tool> | undefined;

  constructor(target: ClientTarget, options: ClientOptions = {}) {
    this.#target = resolveTarget(target);
    this.#options = resolveOptions(options, this.#target.kind);
    const name = (): string => this.#connection?.sdk.getServerVersion()?.name ?? this.#target.label;
    this.#answer = createInputAnswerer(this.#options, { name, warn: this.#options.warn });
  }

  /** The negotiated protocol version; `undefined` until connected. */
  get protocolVersion(): string | undefined {
    return this.#connection?.protocolVersion;
  }

  /** `'modern'` (2026-07-28) or `'handshake'`; `undefined` until connected. */
  get era(): Era | undefined {
    return this.#connection?.era;
  }

  /** Connect (and negotiate the era). Calling it again while connected does nothing. */
  async connect(): Promise<void> {
    if (this.#connection !== undefined) return;
    await this.#open(this.#options.mode);
  }

  /** Call a tool, answering every round it asks, and return its final result. */
  async callTool<TData = unknown>(
    name: string,
    args: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<ToolCallResult<TData>> {
    checkName('callTool', 'tool name', name);
    checkArguments('callTool', args);
    const { value, connection } = await this.#call(
      'callTool',
      { method: 'tools/call', name },
      options,
      async (c, round, o) => {
        const task = await this.#handshakeTaskParam(c, name);
        const params = { name, arguments: args, ...round, ...task };
        // Modern: a tool Parley listed is checked against its output schema by Parley, not by
        // the SDK (see toolOutput.ts). The SDK only knows output schemas from listings too.
        const listed = c.era === 'modern' ? this.#tools?.get(name) : undefined;
        if (listed?.outputSchema === undefined) return c.sdk.callTool(params, o);
        return c.sdk.callTool(params, { ...o, toolDefinition: withoutOutputSchema(listed) });
      },
    );
    const result = value as CallToolResult;
    const listed = this.#tools?.get(name);
    // What the SDK did not check: a modern result (see above), and any task's final result.
    if (listed !== undefined && !isInputRequiredResult(result))
      await checkStructuredOutput(listed, result);
    const tool =
      connection.era === 'handshake' && result.structuredContent !== undefined
        ? await this.#listedTool(name)
        : undefined;
    return toToolCallResult<TData>(result, connection.era, tool);
  }

  /**
   * 2025-11-25: the client asks for a task (`params.task`) when the server runs `tools/call`
   * as tasks and lists this tool as supporting them (optionally or only).
   */
  async #handshakeTaskParam(c: Connection, name: string): Promise<{ task?: object }> {
    if (c.era !== 'handshake' || !this.#options.tasks) return {};
    const tasks = c.sdk.getServerCapabilities()?.tasks as
      { requests?: { tools?: { call?: object } } } | undefined;
    if (tasks?.requests?.tools?.call === undefined) return {};
    const support = (await this.#listedTool(name))?.execution?.taskSupport;
    return support === 'optional' || support === 'required' ? { task: {} } : {};
  }

  /** Get a prompt, answering every round it asks. */
  async getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: CallOptions = {},
  ): Promise<GetPromptResult> {
    checkName('getPrompt', 'prompt name', name);
    checkArguments('getPrompt', args);
    const { value } = await this.#call(
      'getPrompt',
      { method: 'prompts/get', name },
      options,
      (c, round, o) => c.sdk.getPrompt({ name, arguments: args, ...round }, o),
    );
    return value as GetPromptResult;
  }

  /**
   * Read a resource, answering every round it asks. Never served from or stored in the SDK's
   * response cache: a read that asked depends on answers that are not part of any cache key.
   */
  async readResource(uri: string | URL, options: CallOptions = {}): Promise<ReadResourceResult> {
    const href = String(uri);
    checkName('readResource', 'URI', href);
    const { value } = await this.#call(
      'readResource',
      { method: 'resources/read', name: href },
      options,
      (c, round, o) => c.sdk.readResource({ uri: href, ...round }, { ...o, cacheMode: 'bypass' }),
    );
    return value as ReadResourceResult;
  }

  /**
   * Modern era: send one round of a call exactly as given (`inputResponses` and `requestState`
   * too) and return the server's answer to it as it is, an `InputRequiredResult` included,
   * answering nothing. For proxies and gateways that pass rounds through (see `singleRound.ts`).
   */
  async sendRound(
    round: SingleRound,
    options: SingleRoundOptions = {},
  ): Promise<Record<string, unknown>> {
    checkSingleRound(round);
    const limits = singleRoundLimits(options, this.#options);
    const connection = this.#requireConnection('sendRound');
    return sendSingleRound(connection, this.#target.label, round, limits);
  }

  /** Every tool the server lists (all pages). */
  async listTools(): Promise<Tool[]> {
    const { tools } = await this.#list('listTools', (sdk) => sdk.listTools());
    this.#tools = new Map(tools.map((tool) => [tool.name, tool]));
    return tools;
  }

  /** Every prompt the server lists (all pages). */
  async listPrompts(): Promise<Prompt[]> {
    return (await this.#list('listPrompts', (sdk) => sdk.listPrompts())).prompts;
  }

  /** Every resource the server lists (all pages). */
  async listResources(): Promise<Resource[]> {
    return (await this.#list('listResources', (sdk) => sdk.listResources())).resources;
  }

  /** Every resource template the server lists (all pages). */
  async listResourceTemplates(): Promise<ResourceTemplateType[]> {
    return (await this.#list('listResourceTemplates', (sdk) => sdk.listResourceTemplates()))
      .resourceTemplates;
  }

  /** Disconnect: calls in flight fail, a child process ends, an HTTP session is ended. */
  async close(): Promise<void> {
    const connection = this.#connection ?? (await this.#connecting?.catch(() => undefined));
    this.#connection = undefined;
    for (const call of this.#calls.inFlight()) {
      call.fail(new SdkError(SdkErrorCode.ConnectionClosed, 'The client was closed.'));
    }
    await connection?.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #open(mode: ClientMode): Promise<Connection> {
    this.#connecting ??= openConnection(this.#target, mode, this.#setup())
      .then((connection) => {
        this.#connection = connection;
        this.#tools = undefined;
        return connection;
      })
      .finally(() => {
        this.#connecting = undefined;
      });
    return this.#connecting;
  }

  /** What each new connection is built with: capabilities and the handshake era's handlers. */
  #setup(): ConnectionSetup {
    const options = this.#options;
    return {
      clientInfo: options.clientInfo,
      capabilities: capabilitiesFor(options),
      http: options.http,
      onListChanged: options.onListChanged,
      register: (sdk) => {
        registerPushedRequests(sdk, options, {
          answer: this.#answer,
          calls: this.#calls,
          protocolVersion: () =>
            sdk.getNegotiatedProtocolVersion() ?? LATEST_HANDSHAKE_PROTOCOL_VERSION,
          emit: this.#emit,
        });
        sdk.setNotificationHandler('notifications/elicitation/complete', (notification) => {
          const { elicitationId } = notification.params;
          this.#completions.complete(elicitationId);
          try {
            options.onElicitationComplete?.(elicitationId);
          } catch {
            // An observer must not break the connection it observes.
          }
        });
      },
    };
  }

  /** Reports a round to `onRound`; an observer must not change the outcome of what it observes. */
  readonly #emit = (event: RoundEvent): void => {
    try {
      this.#options.onRound?.(event);
    } catch {
      // Ignored on purpose (see above).
    }
  };

  #requireConnection(api: string): Connection {
    if (this.#connection === undefined) {
      throw new SdkError(
        SdkErrorCode.NotConnected,
        `${api}: the client is not connected; await client.connect() first.`,
      );
    }
    return this.#connection;
  }

  /**
   * Run one call; a modern server that answers `-32022` gets one retry, on this connection or
   * on a handshake session (see `retryAfterUnsupportedVersion`).
   */
  async #call<T>(
    api: string,
    info: CallInfo,
    options: CallOptions,
    send: Send<T>,
  ): Promise<{ value: T; connection: Connection }> {
    const limits = resolveCallOptions(api, options, this.#options);
    let retried = false;
    let urlRounds = 0;
    for (;;) {
      const connection = this.#requireConnection(api);
      try {
        const rounds: ModernRoundsContext = {
          answer: this.#answer,
          protocolVersion: connection.protocolVersion,
          emit: this.#emit,
          telemetry: this.#options.telemetry,
        };
        return {
          value: await runCall(connection, this.#calls, info, limits, rounds, send),
          connection,
        };
      } catch (error) {
        const parleyError = toParleyError(error);
        if (
          parleyError instanceof UrlElicitationRequiredError &&
          this.#options.elicitationHandler !== undefined
        ) {
          urlRounds += 1;
          const accepted = await completeUrlElicitations(parleyError, {
            answer: this.#answer,
            completions: this.#completions,
            emit: this.#emit,
            era: connection.era,
            protocolVersion: connection.protocolVersion,
            call: info,
            round: urlRounds,
            maxRounds: limits.maxRounds,
            timeoutMs: limits.timeoutMs,
            signal: limits.signal,
          });
          if (accepted) continue;
          throw parleyError;
        }
        const data = unsupportedVersionData(error);
        if (data === undefined) throw parleyError;
        if (retried || connection.era !== 'modern') {
          throw new UnsupportedProtocolVersionError(data, { cause: error });
        }
        retried = true;
        const retry = retryAfterUnsupportedVersion(
          this.#options.mode,
          data,
          this.#target.label,
          error,
        );
        if (retry === 'retry-on-handshake') await this.#reopen(connection, 'handshake');
      }
    }
  }

  /** Replace `connection` (unless another call already did) with one in `mode`. */
  async #reopen(connection: Connection, mode: ClientMode): Promise<void> {
    if (this.#connection === connection) {
      this.#connection = undefined;
      await connection.close().catch(() => {});
    }
    if (this.#connection === undefined) await this.#open(mode);
  }

  async #list<T>(api: string, list: (sdk: Connection['sdk']) => Promise<T>): Promise<T> {
    try {
      return await list(this.#requireConnection(api).sdk);
    } catch (error) {
      throw toParleyError(error);
    }
  }

  /** The tool as listed, for unwrapping `data`; lists the tools once if nobody has yet. */
  async #listedTool(name: string): Promise<Tool | undefined> {
    if (this.#tools === undefined) await this.listTools().catch(() => undefined);
    return this.#tools?.get(name);
  }
}
