import {
  APP_ANSWER_TOOL,
  APP_ASK_META,
  isRecord,
  type AppAsk,
  type CallToolResult,
  type InputRequest,
  type InputRequests,
} from '@parley/core';

import { APP_CAPABILITIES, type AskReach } from '../ask/askRoutes.ts';
import { WireError } from './errors.ts';
import type { RoundRequest } from './request.ts';

/**
 * The App route, on the wire. A tool call whose asks go to the App (`ask/askRoutes.ts`) ends its
 * round with a tool result the App draws: the questions and the sealed state in `_meta`, out of
 * the model's sight, and a line for the model saying the person is answering. The person's
 * answer comes back as a call of the app-only answer tool, which is the next round of the tool
 * it answers: the same binding, the same screening of answers (re-asked when they do not fit),
 * the same single use, the same `ctx.ask` replay.
 */

/** A round on the App route. */
export const APP_REACH: AskReach = Object.freeze({
  capabilities: APP_CAPABILITIES,
  app: true,
  appElicitation: false,
  cannotRender: Object.freeze([]),
});

/** True when `req` is a call of the answer tool on a server that allows the App route. */
export function isAppAnswer(req: RoundRequest, routes: readonly string[]): boolean {
  return (
    req.method === 'tools/call' && req.params.name === APP_ANSWER_TOOL && routes.includes('app')
  );
}

function invalid(problem: string): WireError {
  return new WireError('invalidParams', `Invalid params for tool ${APP_ANSWER_TOOL}: ${problem}`);
}

/**
 * A call of the answer tool, as the round of the tool it answers: its name and arguments, the
 * state and the answers, on the App route. The request's transport (its log, progress, signal)
 * is kept.
 *
 * @throws {WireError} `-32602` when the call is not `{ tool, arguments?, requestState,
 *   inputResponses? }`.
 */
export function appAnswerRound(req: RoundRequest): RoundRequest {
  const given = req.params.arguments;
  if (!isRecord(given)) {
    throw invalid('give { tool, arguments, requestState, inputResponses }.');
  }
  const { tool, arguments: args = {}, requestState, inputResponses = {} } = given;
  if (typeof tool !== 'string' || tool.length === 0 || tool === APP_ANSWER_TOOL) {
    throw invalid('tool must name the tool whose questions are answered.');
  }
  if (!isRecord(args)) throw invalid('arguments must be the object the tool was called with.');
  if (typeof requestState !== 'string' || requestState.length === 0) {
    throw invalid('requestState must be the sealed state the App was given.');
  }
  // The answers are screened by the round, like any `inputResponses`. The transport's parts
  // are read through the request itself (they may be getters and methods of its class).
  const round: RoundRequest = {
    method: 'tools/call',
    params: { name: tool, arguments: args },
    inputResponses,
    requestState,
    reach: APP_REACH,
    request: req.request,
    get signal() {
      return req.signal;
    },
    log: (level, data) => req.log(level, data),
    get progress() {
      const progress = req.progress;
      return progress === undefined
        ? undefined
        : (value: number, total?: number, message?: string) =>
            progress.call(req, value, total, message);
    },
    get push() {
      return req.push;
    },
    get trace() {
      return req.trace;
    },
    projectToolResult: (result, schema) => req.projectToolResult(result, schema),
  };
  return round;
}

/** What the model reads while the person answers: the questions, and that the App has them. */
function waitingText(tool: string, requests: InputRequests): string {
  const questions = Object.values(requests)
    .map((request: InputRequest) =>
      request.method === 'elicitation/create' ? `"${request.params.message}"` : request.method,
    )
    .join(', ');
  return `The user is answering ${questions} in the form shown for ${tool}. The outcome follows as a message once they do; do not call ${tool} again meanwhile.`;
}

/** The tool result that shows a round's sealed ask in the App. */
export function appAskResult(
  tool: string,
  args: Record<string, unknown>,
  sealed: { inputRequests?: InputRequests | undefined; requestState?: string | undefined },
): CallToolResult {
  const inputRequests = sealed.inputRequests ?? {};
  const ask: AppAsk = {
    tool,
    arguments: args,
    inputRequests,
    requestState: sealed.requestState ?? '',
  };
  return {
    content: [{ type: 'text', text: waitingText(tool, inputRequests) }],
    _meta: { [APP_ASK_META]: ask },
  };
}
