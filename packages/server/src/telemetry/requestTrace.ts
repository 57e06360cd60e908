import {
  SpanKind,
  SpanStatusCode,
  context as otelContext,
  isSpanContextValid,
  trace,
  type Attributes,
  type AttributeValue,
  type Context as OtelContext,
  type Link,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { isRecord } from '@parley/core';

import { ATTR, type Outcome } from './attributes.ts';
import type { Instruments } from './instruments.ts';
import {
  formatTraceparent,
  incomingContext,
  parseTraceparent,
  type HeaderSource,
} from './traceContext.ts';

/**
 * One request's span and measurements. Made only while something records them (see
 * `Telemetry.request`), so every call site reads `trace?.…` and costs nothing otherwise.
 *
 * A round's span starts late, once its sealed state is open, with the arrival as its start
 * time: the flow's trace context rides inside the state, and a span's parent cannot change
 * after it starts. Its parent is the request's own context (`params._meta.traceparent`, else
 * the HTTP header) when that belongs to the flow's trace, else the flow's previous round (the
 * request's context then a link): so every round of a flow lands in one trace, on whichever
 * replica it runs, whether or not the client propagates context.
 *
 * Nothing the person or the model typed is recorded: no argument, answer, message or state,
 * only names, counts and outcomes, unless the server named the field (`telemetry.record`).
 */

/** The fields whose values the server opted in to recording. */
export interface RecordedFields {
  answers: ReadonlySet<string>;
  arguments: ReadonlySet<string>;
}

/** What a request is, as its transport knows it before anything is served. */
export interface RequestInfo {
  method: string;
  era: 'modern' | 'handshake';
  protocolVersion: string;
  id?: string | number | undefined;
  sessionId?: string | undefined;
  /** The request's params (for the target and `_meta`), as they came. */
  params: Record<string, unknown> | undefined;
  /** The HTTP request's headers, over HTTP. */
  headers?: HeaderSource | undefined;
  /** `network.transport`: `'tcp'` over HTTP, `'pipe'` over stdio. */
  transport?: 'tcp' | 'pipe' | undefined;
}

/** A flow, as much of it as its measurements need. */
export interface TracedFlow {
  id: string;
  round: number;
  startedAt: number;
}

/** How a request ended: the reply's result or JSON-RPC error. */
export type Ending =
  { kind: 'result'; result: Record<string, unknown> } | { kind: 'error'; error: { code: number } };

/** A recorded value: JSON, cut short so no span holds a whole document. */
function recordedValue(value: unknown): string {
  const json = JSON.stringify(value) ?? 'undefined';
  return json.length <= 256 ? json : `${json.slice(0, 255)}…`;
}

export class RequestTrace {
  readonly #tracer: Tracer | undefined;
  readonly #instruments: Instruments | undefined;
  readonly #recorded: RecordedFields;
  readonly #info: RequestInfo;
  readonly #name: string;
  /** Wall clock (for the span) and monotonic clock (for durations) at arrival. */
  readonly #startTime = performance.timeOrigin + performance.now();
  readonly #started = performance.now();
  /** Attributes set before the span started. */
  readonly #attributes: Attributes;
  /** The low-cardinality attributes metrics are recorded with. */
  readonly #metricAttributes: Attributes;
  #span: Span | undefined;
  #context: OtelContext | undefined;
  #flow: TracedFlow | undefined;
  #now: () => number = Date.now;
  #pushed = 0;
  #answers = { accept: 0, decline: 0, cancel: 0 };
  #reasks = 0;

  constructor(
    tracer: Tracer | undefined,
    instruments: Instruments | undefined,
    recorded: RecordedFields,
    info: RequestInfo,
  ) {
    this.#tracer = tracer;
    this.#instruments = instruments;
    this.#recorded = recorded;
    this.#info = info;
    const { method, params } = info;
    const name = typeof params?.name === 'string' ? params.name : undefined;
    const attributes: Attributes = {
      [ATTR.method]: method,
      [ATTR.protocolVersion]: info.protocolVersion,
      [ATTR.jsonRpcVersion]: '2.0',
      [ATTR.era]: info.era,
    };
    const metricAttributes: Attributes = { ...attributes };
    if (info.id !== undefined) attributes[ATTR.requestId] = String(info.id);
    if (info.sessionId !== undefined) attributes[ATTR.sessionId] = info.sessionId;
    if (info.transport !== undefined) attributes[ATTR.networkTransport] = info.transport;
    if (method === 'tools/call' && name !== undefined) {
      attributes[ATTR.toolName] = metricAttributes[ATTR.toolName] = name;
      attributes[ATTR.operationName] = metricAttributes[ATTR.operationName] = 'execute_tool';
    } else if (method === 'prompts/get' && name !== undefined) {
      attributes[ATTR.promptName] = metricAttributes[ATTR.promptName] = name;
    } else if (method === 'resources/read' && typeof params?.uri === 'string') {
      attributes[ATTR.resourceUri] = params.uri;
    }
    // `{mcp.method.name} {target}`, the target a low-cardinality name (never a resource's URI).
    this.#name = method === 'resources/read' || name === undefined ? method : `${method} ${name}`;
    this.#attributes = attributes;
    this.#metricAttributes = metricAttributes;
  }

  /**
   * Start the span, once: under `flowParent` (the `traceparent` sealed in the flow's state) when
   * the request's own context is not already in the flow's trace.
   */
  begin(flowParent?: string): void {
    if (this.#span !== undefined || this.#tracer === undefined) return;
    const incoming = incomingContext(this.#info.params?._meta, this.#info.headers);
    const sealed = flowParent === undefined ? undefined : parseTraceparent(flowParent);
    let parent = incoming;
    const links: Link[] = [];
    if (sealed !== undefined && incoming?.traceId !== sealed.traceId) {
      parent = sealed;
      if (incoming !== undefined) links.push({ context: incoming });
    }
    const active = otelContext.active();
    const parentContext = parent === undefined ? active : trace.setSpanContext(active, parent);
    this.#span = this.#tracer.startSpan(
      this.#name,
      { kind: SpanKind.SERVER, startTime: this.#startTime, attributes: this.#attributes, links },
      parentContext,
    );
    this.#context = trace.setSpan(parentContext, this.#span);
  }

  /**
   * Call `fn(...args)` with this request's span as the active one (so a handler's own spans
   * nest). The arguments are passed through, so a caller needs no closure around its call.
   */
  run<A extends unknown[], T>(fn: (...args: A) => T, ...args: A): T {
    this.begin();
    return this.#context === undefined
      ? fn(...args)
      : otelContext.with(this.#context, fn, undefined, ...args);
  }

  #set(key: string, value: AttributeValue): void {
    if (this.#span !== undefined) this.#span.setAttribute(key, value);
    else this.#attributes[key] = value;
  }

  /** The flow this round belongs to, and the clock its start was taken with. */
  flow(flow: TracedFlow, now: () => number): void {
    this.#flow = flow;
    this.#now = now;
    this.#set(ATTR.flowId, flow.id);
    this.#set(ATTR.round, flow.round);
  }

  /** What the next round's state carries for telemetry: the trace to join, when asked. */
  sealed(now: number): { trace: string | undefined; askedAt: number | undefined } {
    const context = this.#span?.spanContext();
    return {
      trace:
        context !== undefined && isSpanContextValid(context)
          ? formatTraceparent(context)
          : undefined,
      askedAt: this.#instruments !== undefined ? now : undefined,
    };
  }

  /** The arguments a round was called with: only the fields the server opted in to. */
  arguments(args: unknown): void {
    if (this.#recorded.arguments.size === 0 || !isRecord(args)) return;
    for (const name of this.#recorded.arguments) {
      if (Object.hasOwn(args, name))
        this.#set(ATTR.argumentPrefix + name, recordedValue(args[name]));
    }
  }

  /** A modern round's answers, by key (as the client sent them, screened). */
  answered(
    answers: Readonly<Record<string, unknown>>,
    askedAt: number | undefined,
    now: number,
  ): void {
    for (const key in answers) {
      if (!Object.hasOwn(answers, key)) continue;
      const answer = answers[key];
      this.#count(isRecord(answer) ? answer.action : undefined);
      if (this.#recorded.answers.has(key)) {
        const content = isRecord(answer) && 'content' in answer ? answer.content : answer;
        this.#set(ATTR.answerPrefix + key, recordedValue(content));
      }
    }
    if (askedAt !== undefined && this.#instruments !== undefined) {
      this.#instruments.answerTime.record(
        Math.max(0, now - askedAt) / 1000,
        this.#metricAttributes,
      );
    }
  }

  #count(action: unknown): void {
    if (action !== 'accept' && action !== 'decline' && action !== 'cancel') return;
    this.#answers[action] += 1;
    this.#instruments?.answers.add(1, { ...this.#metricAttributes, [ATTR.action]: action });
  }

  /** Questions asked again because their answers did not fit. */
  reasked(count = 1): void {
    this.#reasks += count;
    this.#instruments?.reasks.add(count, this.#metricAttributes);
  }

  /** The round's state was used before (single use). */
  refusedReplay(): void {
    this.#instruments?.singleUseRefusals.add(1, this.#metricAttributes);
  }

  /**
   * A request the server pushed to the client (handshake era) and waits on: a child span whose
   * duration is the time to answer.
   */
  wait<T>(method: string, pending: () => Promise<T>): Promise<T> {
    this.#pushed += 1;
    this.begin();
    const started = performance.now();
    const span = this.#tracer?.startSpan(
      method,
      { kind: SpanKind.CLIENT, attributes: { [ATTR.method]: method, [ATTR.era]: this.#info.era } },
      this.#context,
    );
    const settle = (): void => {
      this.#instruments?.answerTime.record((performance.now() - started) / 1000, {
        ...this.#metricAttributes,
        [ATTR.method]: method,
      });
    };
    return pending().then(
      (result) => {
        const action = isRecord(result) ? result.action : undefined;
        if (method === 'elicitation/create') this.#count(action);
        if (typeof action === 'string') span?.setAttribute(ATTR.action, action);
        span?.end();
        settle();
        return result;
      },
      (error: unknown) => {
        const type = error instanceof Error ? error.constructor.name : typeof error;
        span?.setAttribute(ATTR.errorType, type);
        span?.setStatus({ code: SpanStatusCode.ERROR });
        span?.end();
        settle();
        throw error;
      },
    );
  }

  /** The request is answered: close the span and record its measurements. */
  end(ending: Ending): void {
    this.begin();
    const span = this.#span;
    const metricAttributes = { ...this.#metricAttributes };
    let outcome: Outcome;
    if (ending.kind === 'error') {
      outcome = 'error';
      const code = String(ending.error.code);
      metricAttributes[ATTR.errorType] = code;
      span?.setAttributes({ [ATTR.statusCode]: code, [ATTR.errorType]: code });
      // The code, never the message: a message may quote what the person typed.
      span?.setStatus({ code: SpanStatusCode.ERROR, message: `JSON-RPC error ${code}` });
    } else if (ending.result.resultType === 'input_required') {
      outcome = 'input_required';
      const requests = ending.result.inputRequests;
      span?.setAttribute(ATTR.asks, isRecord(requests) ? Object.keys(requests).length : 0);
      const state = ending.result.requestState;
      if (typeof state === 'string') {
        span?.setAttribute(ATTR.stateBytes, state.length);
        this.#instruments?.stateSize.record(state.length, this.#metricAttributes);
      }
    } else {
      outcome = ending.result.isError === true ? 'tool_error' : 'result';
      if (outcome === 'tool_error') {
        metricAttributes[ATTR.errorType] = 'tool_error';
        span?.setAttribute(ATTR.errorType, 'tool_error');
      }
    }
    if (span !== undefined) {
      span.setAttribute(ATTR.outcome, outcome);
      if (this.#pushed > 0) span.setAttribute(ATTR.asks, this.#pushed);
      span.setAttributes({
        [ATTR.accepted]: this.#answers.accept,
        [ATTR.declined]: this.#answers.decline,
        [ATTR.cancelled]: this.#answers.cancel,
        [ATTR.reasks]: this.#reasks,
      });
      span.end();
    }
    const instruments = this.#instruments;
    if (instruments === undefined) return;
    const elapsed = (performance.now() - this.#started) / 1000;
    instruments.operationDuration.record(elapsed, metricAttributes);
    const flow = this.#flow;
    if (flow === undefined || outcome === 'input_required') return;
    // A finished flow: the modern era's rounds are its requests; a handshake call's, the call
    // and each request it pushed.
    const modern = this.#info.era === 'modern';
    const flowAttributes = { ...metricAttributes, [ATTR.outcome]: outcome };
    instruments.flowRounds.record(modern ? flow.round : 1 + this.#pushed, flowAttributes);
    instruments.flowDuration.record(
      modern ? Math.max(0, this.#now() - flow.startedAt) / 1000 : elapsed,
      flowAttributes,
    );
  }
}
