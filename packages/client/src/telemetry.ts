import {
  SpanKind,
  SpanStatusCode,
  context as otelContext,
  isSpanContextValid,
  trace,
  type Context as OtelContext,
  type Span,
  type SpanContext,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { isRecord } from '@parley/core';

import type { CallInfo, ClientTelemetryOptions } from './types.ts';

/**
 * The client's spans, on the OpenTelemetry API (the application brings the SDK): one span per
 * call, with a child per request it sends (each round of a modern flow), and a span for each
 * request a handshake-era server pushes, whose duration is the time to answer it. Each request
 * carries its span's W3C trace context in `params._meta.traceparent` (as the semantic
 * conventions for MCP ask) and, while a context manager is registered, the HTTP `traceparent`
 * header. With no SDK registered the API's spans are no-ops and nothing is propagated.
 *
 * No argument, answer or message is recorded: names, counts and outcomes only.
 */

const SCOPE = '@parley/client';

export function traceparentOf(context: SpanContext): string {
  return `00-${context.traceId}-${context.spanId}-0${(context.traceFlags & 1).toString(16)}`;
}

/** The `_meta` entries that carry a span's context, or `undefined` for a no-op span. */
function metaOf(span: Span): Record<string, string> | undefined {
  const context = span.spanContext();
  if (!isSpanContextValid(context)) return undefined;
  const meta: Record<string, string> = { traceparent: traceparentOf(context) };
  const state = context.traceState?.serialize();
  if (state !== undefined && state.length > 0) meta.tracestate = state;
  return meta;
}

/** The client's tracer: the option's provider, else the global one (read on every call). */
export class ClientTelemetry {
  readonly #provider: TracerProvider | undefined;
  readonly #off: boolean;

  constructor(options: ClientTelemetryOptions | false | undefined) {
    this.#off = options === false;
    this.#provider = options === false ? undefined : options?.tracerProvider;
  }

  /** The call's trace, or `undefined` when telemetry is off. */
  call(info: CallInfo, era: 'modern' | 'handshake'): CallTrace | undefined {
    if (this.#off) return undefined;
    const tracer = (this.#provider ?? trace.getTracerProvider()).getTracer(SCOPE);
    return new CallTrace(tracer, info, era);
  }
}

/** One call's span, its requests' spans, and the spans of requests pushed while it runs. */
export class CallTrace {
  readonly #tracer: Tracer;
  readonly #name: string;
  readonly #attributes: Record<string, string>;
  readonly #span: Span;
  readonly #context: OtelContext;
  #legs = 0;

  constructor(tracer: Tracer, info: CallInfo, era: 'modern' | 'handshake') {
    this.#tracer = tracer;
    const named = info.method === 'tools/call' || info.method === 'prompts/get';
    this.#name = named ? `${info.method} ${info.name}` : info.method;
    this.#attributes = {
      'mcp.method.name': info.method,
      'parley.era': era,
      ...(info.method === 'tools/call' ? { 'gen_ai.tool.name': info.name } : {}),
      ...(info.method === 'prompts/get' ? { 'gen_ai.prompt.name': info.name } : {}),
      ...(info.method === 'resources/read' ? { 'mcp.resource.uri': info.name } : {}),
    };
    const parent = otelContext.active();
    this.#span = tracer.startSpan(
      this.#name,
      { kind: SpanKind.INTERNAL, attributes: this.#attributes },
      parent,
    );
    this.#context = trace.setSpan(parent, this.#span);
  }

  /**
   * Send one request of the call (a round): its own span, its context in `_meta` and, through
   * the active context, in the HTTP header.
   */
  leg<T>(send: (meta: Record<string, string> | undefined) => Promise<T>): Promise<T> {
    this.#legs += 1;
    const span = this.#tracer.startSpan(
      this.#name,
      { kind: SpanKind.CLIENT, attributes: { ...this.#attributes, 'parley.round': this.#legs } },
      this.#context,
    );
    const meta = metaOf(span);
    return otelContext
      .with(trace.setSpan(this.#context, span), () => send(meta))
      .then(
        (result) => {
          const required = isRecord(result) && result.resultType === 'input_required';
          span.setAttribute('parley.outcome', required ? 'input_required' : 'result');
          span.end();
          return result;
        },
        (error: unknown) => {
          failed(span, error);
          throw error;
        },
      );
  }

  /** A request the server pushed during this call, answered by `answer`. */
  pushed<T>(method: string, answer: () => Promise<T>): Promise<T> {
    const span = this.#tracer.startSpan(
      method,
      {
        kind: SpanKind.SERVER,
        attributes: { 'mcp.method.name': method, 'parley.era': 'handshake' },
      },
      this.#context,
    );
    return otelContext.with(trace.setSpan(this.#context, span), answer).then(
      (result) => {
        const action = isRecord(result) ? result.action : undefined;
        if (typeof action === 'string') span.setAttribute('parley.answer.action', action);
        span.end();
        return result;
      },
      (error: unknown) => {
        failed(span, error);
        throw error;
      },
    );
  }

  /** The call is over: `rounds` it answered, and how it ended. */
  end(rounds: number, error?: unknown): void {
    this.#span.setAttribute('parley.rounds', rounds);
    if (error !== undefined) return failed(this.#span, error);
    this.#span.setAttribute('parley.outcome', 'result');
    this.#span.end();
  }
}

/** A span that ended in `error`: its type and code, never its message. */
function failed(span: Span, error: unknown): void {
  const code = isRecord(error) && typeof error.code === 'number' ? String(error.code) : undefined;
  span.setAttribute(
    'error.type',
    code ?? (error instanceof Error ? error.constructor.name : typeof error),
  );
  if (code !== undefined) span.setAttribute('rpc.response.status_code', code);
  span.setAttribute('parley.outcome', 'error');
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** The active span's `traceparent`, for the HTTP header (none without a context manager). */
export function activeTraceparent(): string | undefined {
  const span = trace.getSpan(otelContext.active());
  const context = span?.spanContext();
  return context !== undefined && isSpanContextValid(context) ? traceparentOf(context) : undefined;
}
