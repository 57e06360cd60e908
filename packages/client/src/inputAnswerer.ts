import {
  ParleyError,
  TASKS_EXTENSION,
  UnsupportedCapabilityError,
  requiredCapabilities,
  type ClientCapabilities,
  type ElicitFormParams,
  type ElicitUrlParams,
  type InputRequest,
  type InputResponse,
} from '@parley/core';

import { answerElicitation } from './elicitationAnswer.ts';
import {
  InputHandlerError,
  UnreadableSchemaError,
  askLabel,
  type InputHandlerName,
} from './errors.ts';
import { UnreadableField, readRequestedSchema } from './receivedSchema.ts';
import { answerRoots, answerSampling } from './samplingAndRoots.ts';
import type { ElicitationHandler, InputContext, RootsProvider, SamplingHandler } from './types.ts';

/**
 * One place that answers an input request, whichever era it came in: pushed by a handshake-era
 * server, or embedded in a modern `input_required` result. The same registration answers both.
 */

/** The handlers a client was given. */
export interface InputHandlers {
  elicitationHandler?: ElicitationHandler | undefined;
  samplingHandler?: SamplingHandler | undefined;
  roots?: RootsProvider | undefined;
}

/** Answers one request; failures are {@link InputHandlerError}s (or capability errors). */
export type InputAnswerer = (request: InputRequest, ctx: InputContext) => Promise<InputResponse>;

/**
 * What to declare: only what a handler can answer, so a server never asks for the rest. URL mode
 * is declared with form mode: the same handler gets both, with the URL in `params`. The tasks
 * extension is declared when the client takes tasks (a 2025-11-25 server ignores it), beside the
 * extensions the client was given.
 */
export function capabilitiesFor(
  handlers: InputHandlers & { tasks?: boolean; extensions?: Record<string, object> },
): ClientCapabilities {
  const extensions = {
    ...handlers.extensions,
    ...(handlers.tasks === true ? { [TASKS_EXTENSION]: {} } : {}),
  };
  return {
    ...(handlers.elicitationHandler ? { elicitation: { form: {}, url: {} } } : {}),
    ...(handlers.samplingHandler ? { sampling: {} } : {}),
    ...(handlers.roots ? { roots: {} } : {}),
    ...(Object.keys(extensions).length > 0 ? { extensions } : {}),
  };
}

const HANDLER_OF: Record<InputRequest['method'], InputHandlerName> = {
  'elicitation/create': 'elicitationHandler',
  'sampling/createMessage': 'samplingHandler',
  'roots/list': 'roots',
};

const FEATURE_OF = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
} as const;

function missingHandler(request: InputRequest): UnsupportedCapabilityError {
  return new UnsupportedCapabilityError(
    { feature: FEATURE_OF[request.method], requiredCapabilities: requiredCapabilities(request) },
    {
      message: `The server asked for ${request.method}, which this client did not declare: give the Client ${HANDLER_OF[request.method]} to answer it.`,
    },
  );
}

/** Who asked, and where warnings about what they sent go. */
export interface AskingServer {
  /** The server's name: its `serverInfo.name`, else the target. */
  name(): string;
  warn(message: string): void;
}

const UNNAMED_SERVER: AskingServer = { name: () => 'the server', warn: () => {} };

/** The most distinct warnings one client remembers having given (each is given once). */
const MAX_REMEMBERED_WARNINGS = 256;

/**
 * The params with the requested schema as the one reading makes it (see `receivedSchema.ts`),
 * each correction warned about once; a schema with no one reading is the server's error.
 */
function readParams(
  params: ElicitFormParams | ElicitUrlParams,
  ctx: InputContext,
  request: InputRequest,
  server: AskingServer,
  warned: Set<string>,
): ElicitFormParams | ElicitUrlParams {
  if (params.mode === 'url') return params;
  try {
    const { schema, defects } = readRequestedSchema(params.requestedSchema);
    for (const defect of defects) {
      const warning = `server "${server.name()}" sent ${defect}`;
      if (warned.has(warning)) continue;
      if (warned.size < MAX_REMEMBERED_WARNINGS) warned.add(warning);
      server.warn(warning);
    }
    return defects.length === 0 ? params : { ...params, requestedSchema: schema };
  } catch (error) {
    if (!(error instanceof UnreadableField)) throw error;
    throw new UnreadableSchemaError({
      server: server.name(),
      field: error.field,
      reason: error.reason,
      call: ctx.call,
      round: ctx.round,
      key: ctx.key,
      ask: askLabel(request, ctx),
    });
  }
}

/**
 * The answerer for a set of handlers. `server` names who asks in warnings and errors about the
 * schemas it sends.
 */
export function createInputAnswerer(
  handlers: InputHandlers,
  server: AskingServer = UNNAMED_SERVER,
): InputAnswerer {
  const warned = new Set<string>();
  /** The handler call for `request`, after checking one exists (that failure is not the handler's). */
  const prepare = (request: InputRequest, ctx: InputContext): (() => Promise<InputResponse>) => {
    const { elicitationHandler, samplingHandler, roots } = handlers;
    switch (request.method) {
      case 'elicitation/create': {
        if (!elicitationHandler) throw missingHandler(request);
        const params = readParams(request.params, ctx, request, server, warned);
        return () => answerElicitation(elicitationHandler, params, ctx);
      }
      case 'sampling/createMessage':
        if (!samplingHandler) throw missingHandler(request);
        return () => answerSampling(samplingHandler, request.params, ctx);
      case 'roots/list':
        if (!roots) throw missingHandler(request);
        return () => answerRoots(roots, ctx);
      default:
        throw new ParleyError(
          'internal',
          `The server sent an unknown input request '${String((request as { method?: unknown }).method)}' as ${askLabel(request, ctx)}.`,
        );
    }
  };
  return async (request, ctx) => {
    const run = prepare(request, ctx);
    try {
      return await run();
    } catch (error) {
      throw new InputHandlerError(
        {
          handler: HANDLER_OF[request.method],
          call: ctx.call,
          round: ctx.round,
          key: ctx.key,
          ask: askLabel(request, ctx),
        },
        error,
      );
    }
  };
}
