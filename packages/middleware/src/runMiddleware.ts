import type { MiddlewareEntry } from './middleware.ts';
import type { MiddlewareContext } from './types.ts';

/**
 * The onion: the server calls {@link runMiddleware} around its handler for every request it
 * serves, and so on every round of a multi-round call (each modern round is a full request).
 */

type Hook = (context: MiddlewareContext<never>, callNext: () => Promise<unknown>) => unknown;

interface Layer {
  hook: Hook;
  owner: object;
  /** `LoggingMiddleware.onRequest`, for error messages. */
  label: string;
}

const API = 'runMiddleware';

/** The method's own hook, after `onRequest`. */
const METHOD_HOOKS: Readonly<Record<string, string>> = {
  'tools/call': 'onCallTool',
  'prompts/get': 'onGetPrompt',
  'resources/read': 'onReadResource',
  'tools/list': 'onListTools',
  'prompts/list': 'onListPrompts',
  'resources/list': 'onListResources',
  'resources/templates/list': 'onListResourceTemplates',
};

function nameOf(value: object): string {
  if (typeof value === 'function') return value.name || 'anonymous middleware';
  return value.constructor?.name || 'middleware';
}

function isClass(value: (...args: never[]) => unknown): boolean {
  // A class passed instead of an instance (`use(LoggingMiddleware)`) is also a function; calling
  // it would fail with an unhelpful "cannot be invoked without 'new'".
  return Function.prototype.toString.call(value).startsWith('class');
}

function layersOf(middleware: readonly MiddlewareEntry[], method: string): Layer[] {
  const methodHook = METHOD_HOOKS[method];
  const layers: Layer[] = [];
  for (const entry of middleware) {
    if (typeof entry === 'function') {
      if (isClass(entry)) {
        throw new TypeError(
          `${API}: got the class ${nameOf(entry)}, not an instance; install it with use(new ${nameOf(entry)}()).`,
        );
      }
      layers.push({ hook: entry as Hook, owner: entry, label: nameOf(entry) });
      continue;
    }
    // Duck-typed: any object with the hooks works, not only subclasses of Middleware.
    for (const name of ['onRequest', methodHook]) {
      if (name === undefined) continue;
      const hook = (entry as unknown as Record<string, unknown>)[name];
      if (typeof hook === 'function') {
        layers.push({ hook: hook as Hook, owner: entry, label: `${nameOf(entry)}.${name}` });
      }
    }
  }
  return layers;
}

/**
 * Run `terminal` (the handler) inside `middleware`, Koa/Hono style: for each entry in order (the
 * first outermost) its `onRequest`, then the method's hook (`onCallTool`, …), skipping the ones
 * it lacks; a plain function acts as `onRequest`.
 *
 * A hook may return without calling `callNext` (short-circuit) or call it once; a second call
 * rejects with an `Error`, because running the handler twice in one round would repeat its side
 * effects. A hook that resolves to `undefined` is an error too: it almost always forgot to
 * `return await callNext()`, and the server would otherwise send an empty result. Whatever
 * `terminal` or a hook throws propagates up the chain as a throw.
 */
export async function runMiddleware<TResult, TParams extends object = Record<string, unknown>>(
  middleware: readonly MiddlewareEntry[],
  context: MiddlewareContext<TParams>,
  terminal: () => Promise<TResult>,
): Promise<TResult> {
  if (middleware.length === 0) return terminal();
  const layers = layersOf(middleware, context.method);

  const dispatch = async (index: number): Promise<TResult> => {
    const layer = layers[index];
    if (layer === undefined) return terminal();
    let called = false;
    const callNext = async (): Promise<TResult> => {
      if (called) {
        throw new Error(
          `${API}: ${layer.label} called callNext() a second time for one ${context.method} round; call it at most once.`,
        );
      }
      called = true;
      return dispatch(index + 1);
    };
    const result = await layer.hook.call(layer.owner, context as never, callNext);
    if (result === undefined) {
      throw new TypeError(
        `${API}: ${layer.label} resolved to undefined for ${context.method}; return the result of callNext() (or a result of its own).`,
      );
    }
    return result as TResult;
  };
  return dispatch(0);
}
