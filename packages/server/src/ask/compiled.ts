import {
  compileResponseType,
  type CompiledResponseType,
  type InferResponse,
  type ResponseType,
  type ResponseTypeOptions,
} from '@parley/schema';

/**
 * `compileResponseType`, remembered per response-type object: a guard-pattern handler reads the
 * same answer type on every round (and builds the same asks), and compiling a zod schema again
 * each time is most of the cost of a round. Response types are treated as immutable values, as
 * zod schemas are; the cache holds them weakly, so it never keeps one alive.
 */

const cache = new WeakMap<object, Map<string, CompiledResponseType<unknown>>>();

export function compiled<const R extends ResponseType>(
  responseType: R,
  options: ResponseTypeOptions = {},
): CompiledResponseType<InferResponse<R>> {
  if (
    responseType === null ||
    (typeof responseType !== 'object' && typeof responseType !== 'function')
  ) {
    return compileResponseType(responseType, options as never);
  }
  const key = `${options.responseTitle ?? ''}\u0000${options.responseDescription ?? ''}`;
  let byLabels = cache.get(responseType);
  if (byLabels === undefined) {
    byLabels = new Map();
    cache.set(responseType, byLabels);
  }
  let entry = byLabels.get(key);
  if (entry === undefined) {
    entry = compileResponseType(responseType, options as never) as CompiledResponseType<unknown>;
    byLabels.set(key, entry);
  }
  return entry as CompiledResponseType<InferResponse<R>>;
}
