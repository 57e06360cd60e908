import {
  TraceFlags,
  createTraceState,
  isSpanContextValid,
  type SpanContext,
} from '@opentelemetry/api';
import { isRecord } from '@parley/core';

/**
 * W3C trace context (`traceparent`, `tracestate`), read and written by Parley itself rather
 * than through the global propagator: a request's context must be read the same way whatever
 * propagator (or none) the application set up, and a flow's context, sealed in `requestState`,
 * must open the same on every replica.
 */

const TRACEPARENT = /^([\da-f]{2})-([\da-f]{32})-([\da-f]{16})-([\da-f]{2})(?:-.*)?$/;

/** The span context a `traceparent` names (remote), or `undefined` for a missing or bad one. */
export function parseTraceparent(
  traceparent: unknown,
  tracestate?: unknown,
): SpanContext | undefined {
  if (typeof traceparent !== 'string' || traceparent.length > 512) return undefined;
  const match = TRACEPARENT.exec(traceparent.trim());
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
  ];
  // Version ff is forbidden; version 00 has exactly four fields.
  if (version === 'ff' || (version === '00' && traceparent.trim().length !== 55)) return undefined;
  const context: SpanContext = {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
  if (typeof tracestate === 'string' && tracestate.length > 0 && tracestate.length <= 512) {
    context.traceState = createTraceState(tracestate);
  }
  return isSpanContextValid(context) ? context : undefined;
}

/** A span context as a `traceparent` header value. */
export function formatTraceparent(context: SpanContext): string {
  const flags = (context.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, '0');
  return `00-${context.traceId}-${context.spanId}-${flags}`;
}

/** An HTTP request's headers, as the transports hold them. */
export interface HeaderSource {
  get(name: string): string | null | undefined;
}

/**
 * The context a request carries: `params._meta.traceparent` (the MCP message's own, which the
 * semantic conventions prefer), else the HTTP `traceparent` header.
 */
export function incomingContext(
  meta: unknown,
  headers: HeaderSource | undefined,
): SpanContext | undefined {
  if (isRecord(meta) && meta.traceparent !== undefined) {
    const fromMeta = parseTraceparent(meta.traceparent, meta.tracestate);
    if (fromMeta !== undefined) return fromMeta;
  }
  if (headers === undefined) return undefined;
  return parseTraceparent(
    headers.get('traceparent') ?? undefined,
    headers.get('tracestate') ?? undefined,
  );
}
