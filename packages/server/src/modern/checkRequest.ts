import { MODERN_PROTOCOL_VERSIONS, isRecord } from '@parley/core';

import { metaOf, readEnvelope } from './envelope.ts';
import { errorReply } from './errorReply.ts';
import { checkHeaders, mcpNameProblem, mirroredHeaders, type HeaderReader } from './headers.ts';
import type { CheckedRequest, ModernReply } from './messages.ts';

/**
 * The validation ladder every modern request climbs before anything runs: the JSON-RPC shape,
 * the `_meta` envelope, the protocol version, and (over HTTP) the headers that mirror the body.
 * Each rung that fails is the error reply that names it.
 */

export function checkRequest(
  message: unknown,
  headers: HeaderReader | undefined,
): ModernReply | CheckedRequest {
  if (!isRecord(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
    return errorReply('invalidRequest', 'Invalid Request: not a JSON-RPC 2.0 request');
  }
  const { method } = message;
  if (!('id' in message)) return { status: 202 }; // a notification: acknowledged, nothing to run
  const { id } = message;
  // A number that is not a safe integer (1e400 parses as Infinity, 2^60 loses digits) could not
  // be echoed back as the client wrote it: the client could never match the answer.
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id))) {
    return errorReply(
      'invalidRequest',
      'Invalid Request: the id must be a string or an integer (a safe one: at most 2^53 - 1)',
    );
  }
  if (message.params !== undefined && !isRecord(message.params)) {
    return errorReply('invalidRequest', 'Invalid Request: params must be an object', { id });
  }
  const params = (message.params ?? {}) as Record<string, unknown>;
  const meta = metaOf(message);

  // The mirrored headers are read once; the mismatches are checked before the envelope, the
  // missing ones once the envelope is known to be valid.
  const mirrored = headers === undefined ? undefined : mirroredHeaders(headers);
  if (mirrored !== undefined) {
    const mismatch = checkHeaders(mirrored, method, meta, 'present');
    if (mismatch !== undefined) {
      return errorReply('headerMismatch', mismatch.message, { id, data: mismatch.data });
    }
  }
  if (meta === undefined || !('io.modelcontextprotocol/protocolVersion' in meta)) {
    return errorReply(
      'malformedParams',
      'Invalid params: a protocol revision 2026-07-28 request must carry the per-request envelope in params._meta (io.modelcontextprotocol/protocolVersion, io.modelcontextprotocol/clientCapabilities)',
      {
        id,
        data: {
          envelope: {
            missing: meta === undefined ? ['_meta'] : ['io.modelcontextprotocol/protocolVersion'],
          },
        },
      },
    );
  }
  const envelope = readEnvelope(meta);
  if ('problem' in envelope) {
    return errorReply(
      'malformedParams',
      `Invalid _meta envelope for protocol revision 2026-07-28: ${envelope.key}: ${envelope.problem}`,
      { id, data: { envelope } },
    );
  }
  if (!MODERN_PROTOCOL_VERSIONS.includes(envelope.protocolVersion)) {
    return errorReply(
      'unsupportedProtocolVersion',
      `Unsupported protocol version: ${envelope.protocolVersion}`,
      {
        id,
        data: { supported: [...MODERN_PROTOCOL_VERSIONS], requested: envelope.protocolVersion },
      },
    );
  }
  if (headers !== undefined && mirrored !== undefined) {
    const missing = checkHeaders(mirrored, method, meta, 'required');
    const problem = missing ?? mcpNameProblem(headers, method, params);
    if (problem !== undefined) {
      return errorReply('headerMismatch', problem.message, { id, data: problem.data });
    }
  }

  return { id, method, params, envelope };
}
