import type { MiddlewareContext, MiddlewareEntry, runMiddleware } from '@parley/middleware';

import type { RoundTarget } from '../handler/kinds/target.ts';
import type { RoundRequest } from './request.ts';

/**
 * `@parley/middleware`'s onion runner, loaded the first time a server installs middleware
 * (`use()`) rather than when `@parley/server` is imported: a server without middleware never
 * reads the package, one file fewer on the way to its first response.
 */
let runner: typeof runMiddleware | undefined;
let loading: Promise<typeof runMiddleware> | undefined;

/** Start loading the runner (called by `use()`), so the first round seldom waits for it. */
export function loadMiddlewareRunner(): Promise<typeof runMiddleware> {
  loading ??= import('./middlewareModule.ts').then((module) => (runner = module.runMiddleware));
  return loading;
}

/** Run `terminal` inside `middleware`; with none installed, `terminal` alone. */
export async function runInstalledMiddleware<TResult, TParams extends object>(
  middleware: readonly MiddlewareEntry[],
  context: MiddlewareContext<TParams>,
  terminal: () => Promise<TResult>,
): Promise<TResult> {
  if (middleware.length === 0) return terminal();
  const run = runner ?? (await loadMiddlewareRunner());
  return run(middleware, context, terminal);
}

/** The fields of `MiddlewareContext` that say which request and handler a round is. */
type RoundFields = 'method' | 'params' | 'era' | 'protocolVersion' | 'principal' | 'handler';

/** What middleware sees of a round's request and handler, however its flow was opened (or not). */
export function roundFieldsOf(
  req: RoundRequest,
  target: RoundTarget,
): Pick<MiddlewareContext, RoundFields> {
  const { request } = req;
  return {
    method: req.method,
    params: target.middlewareParams,
    era: request.era,
    protocolVersion: request.protocolVersion,
    principal: request.principal,
    handler: target.handler,
  };
}
