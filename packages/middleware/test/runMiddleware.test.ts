import { describe, expect, test } from 'vitest';

import { InputRequiredToolResult, ToolResult } from '@parley/core';
import {
  Middleware,
  runMiddleware,
  type CallNext,
  type MiddlewareContext,
  type MiddlewareFunction,
} from '../src/index.ts';
import { listContext, roundContext } from './helpers/fakeContext.ts';

/** A middleware that records entering and leaving each of its hooks. */
class Recorder extends Middleware {
  constructor(
    readonly label: string,
    readonly calls: string[],
  ) {
    super();
  }

  #wrap = async (hook: string, callNext: CallNext<unknown>): Promise<unknown> => {
    this.calls.push(`${this.label}.${hook}>`);
    const result = await callNext();
    this.calls.push(`<${this.label}.${hook}`);
    return result;
  };

  override onRequest(_context: MiddlewareContext, callNext: CallNext<unknown>) {
    return this.#wrap('onRequest', callNext);
  }
  override onCallTool(_context: MiddlewareContext, callNext: CallNext<ToolResult>) {
    return this.#wrap('onCallTool', callNext) as Promise<ToolResult>;
  }
  override onListTools(
    _context: MiddlewareContext,
    callNext: CallNext<{ tools: Record<string, unknown>[] }>,
  ) {
    return this.#wrap('onListTools', callNext) as Promise<{ tools: Record<string, unknown>[] }>;
  }
}

describe('runMiddleware', () => {
  test('with no middleware it runs the handler and returns its result', async () => {
    const result = new ToolResult({ content: [{ type: 'text', text: 'done' }] });
    await expect(runMiddleware([], roundContext(), async () => result)).resolves.toBe(result);
  });

  test('hooks nest onRequest → method hook, the first middleware outermost', async () => {
    const calls: string[] = [];
    const result = await runMiddleware(
      [new Recorder('A', calls), new Recorder('B', calls)],
      roundContext(),
      async () => {
        calls.push('handler');
        return new ToolResult();
      },
    );
    expect(result).toBeInstanceOf(ToolResult);
    expect(calls).toEqual([
      'A.onRequest>',
      'A.onCallTool>',
      'B.onRequest>',
      'B.onCallTool>',
      'handler',
      '<B.onCallTool',
      '<B.onRequest',
      '<A.onCallTool',
      '<A.onRequest',
    ]);
  });

  test.each([
    ['tools/call', 'onCallTool'],
    ['prompts/get', 'onGetPrompt'],
    ['resources/read', 'onReadResource'],
    ['tools/list', 'onListTools'],
    ['prompts/list', 'onListPrompts'],
    ['resources/list', 'onListResources'],
    ['resources/templates/list', 'onListResourceTemplates'],
  ])('%s runs %s and no other method hook', async (method, hook) => {
    const fired: string[] = [];
    const spy = new (class extends Middleware {})();
    for (const name of [
      'onCallTool',
      'onGetPrompt',
      'onReadResource',
      'onListTools',
      'onListPrompts',
      'onListResources',
      'onListResourceTemplates',
    ]) {
      Object.assign(spy, {
        [name]: async (_context: MiddlewareContext, callNext: CallNext<unknown>) => {
          fired.push(name);
          return callNext();
        },
      });
    }
    await runMiddleware([spy], listContext(method), async () => ({ ok: true }));
    expect(fired).toEqual([hook]);
  });

  test('a plain function acts as onRequest, for every method, in the order given', async () => {
    const calls: string[] = [];
    const fn: MiddlewareFunction = async (context, callNext) => {
      calls.push(`fn ${context.method}`);
      return callNext();
    };
    await runMiddleware([fn, new Recorder('A', calls)], listContext('tools/list'), async () => ({
      tools: [],
    }));
    await runMiddleware(
      [new Recorder('A', calls), fn],
      roundContext(),
      async () => new ToolResult(),
    );
    expect(calls).toEqual([
      'fn tools/list',
      'A.onRequest>',
      'A.onListTools>',
      '<A.onListTools',
      '<A.onRequest',
      'A.onRequest>',
      'A.onCallTool>',
      'fn tools/call',
      '<A.onCallTool',
      '<A.onRequest',
    ]);
  });

  test('a plain object with hooks works too, with `this` bound to it', async () => {
    const counter = {
      seen: 0,
      async onCallTool(_context: MiddlewareContext, callNext: CallNext<ToolResult>) {
        this.seen += 1;
        return callNext();
      },
    };
    await runMiddleware([counter as never], roundContext(), async () => new ToolResult());
    expect(counter.seen).toBe(1);
  });

  test('calling callNext a second time rejects, and the handler runs once', async () => {
    let runs = 0;
    class Twice extends Middleware {
      override async onCallTool(_context: MiddlewareContext, callNext: CallNext<ToolResult>) {
        await callNext();
        return callNext();
      }
    }
    const run = runMiddleware([new Twice()], roundContext(), async () => {
      runs += 1;
      return new ToolResult();
    });
    await expect(run).rejects.toThrow(
      'runMiddleware: Twice.onCallTool called callNext() a second time for one tools/call round; call it at most once.',
    );
    expect(runs).toBe(1);
  });

  test('a hook may short-circuit: the handler does not run and its result is returned', async () => {
    let runs = 0;
    const cached = new ToolResult({ content: [{ type: 'text', text: 'cached' }] });
    const shortCircuit: MiddlewareFunction = async () => cached;
    const result = await runMiddleware([shortCircuit], roundContext(), async () => {
      runs += 1;
      return new ToolResult();
    });
    expect(result).toBe(cached);
    expect(runs).toBe(0);
  });

  test('an asking round resolves through every hook as an InputRequiredToolResult', async () => {
    const seen: boolean[] = [];
    const guard: MiddlewareFunction = async (_context, callNext) => {
      const result = await callNext();
      seen.push(result instanceof InputRequiredToolResult);
      return result;
    };
    const ask = new InputRequiredToolResult({
      resultType: 'input_required',
      inputRequests: {
        destination: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Where?',
            requestedSchema: { type: 'object', properties: {} },
          },
        },
      },
    });
    await expect(runMiddleware([guard, guard], roundContext(), async () => ask)).resolves.toBe(ask);
    expect(seen).toEqual([true, true]);
  });

  test('a thrown error propagates up the chain as a throw', async () => {
    const caught: unknown[] = [];
    const observe: MiddlewareFunction = async (_context, callNext) => {
      try {
        return await callNext();
      } catch (error) {
        caught.push(error);
        throw error;
      }
    };
    const boom = new Error('boom');
    await expect(
      runMiddleware([observe, observe], roundContext(), async () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(caught).toEqual([boom, boom]);
  });

  test('a hook that resolves to undefined (a forgotten return) is an error', async () => {
    const forgetful: MiddlewareFunction = async function forgetful(_context, callNext) {
      await callNext();
      return undefined;
    };
    await expect(
      runMiddleware([forgetful], roundContext(), async () => new ToolResult()),
    ).rejects.toThrow(
      'runMiddleware: forgetful resolved to undefined for tools/call; return the result of callNext() (or a result of its own).',
    );
  });

  test('a class passed instead of an instance is a TypeError naming the fix', async () => {
    class Audit extends Middleware {}
    await expect(
      runMiddleware([Audit as never], roundContext(), async () => new ToolResult()),
    ).rejects.toThrow(
      new TypeError(
        'runMiddleware: got the class Audit, not an instance; install it with use(new Audit()).',
      ),
    );
  });

  test('every hook of one request shares its store; the next request gets a new one', async () => {
    const key = Symbol('started');
    class Stamp extends Middleware {
      override async onRequest(context: MiddlewareContext, callNext: CallNext<unknown>) {
        context.store.set(key, 'stamped');
        return callNext();
      }
      override async onCallTool(context: MiddlewareContext, callNext: CallNext<ToolResult>) {
        expect(context.store.get(key)).toBe('stamped');
        return callNext();
      }
    }
    const reader: MiddlewareFunction = async (context, callNext) => {
      expect(context.store.get(key)).toBe('stamped');
      return callNext();
    };
    await runMiddleware([new Stamp(), reader], roundContext(), async () => new ToolResult());
    expect(roundContext().store.has(key)).toBe(false);
  });
});
