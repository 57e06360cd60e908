/**
 * Bounds on what a request may carry into a round, checked before anything recursive (argument
 * validation, the state binding's canonical JSON) touches it: a value nested thousands deep or
 * megabytes wide is refused with `-32602`, not left to blow the stack further in.
 */

/** Limits on the arguments (and answers) one request may carry. */
export interface ArgumentLimits {
  /** The deepest nesting of objects and arrays accepted. Default 64. */
  maxDepth?: number;
  /** The most values (every object, array and scalar counts one) accepted. Default 100 000. */
  maxNodes?: number;
}

export const DEFAULT_MAX_DEPTH = 64;
export const DEFAULT_MAX_NODES = 100_000;

/**
 * Why `value` is past the limits, or `undefined`. Iterative, so depth itself cannot overflow the
 * stack.
 */
export function limitProblem(
  value: unknown,
  maxDepth: number = DEFAULT_MAX_DEPTH,
  maxNodes: number = DEFAULT_MAX_NODES,
): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  // Two parallel stacks, not a `{ value, depth }` per node, and `for..in`, not
  // `Object.values`: this runs over every request's arguments and answers.
  const stack: object[] = [value];
  const depths: number[] = [1];
  let nodes = 0;
  while (stack.length > 0) {
    const current = stack.pop() as object;
    const depth = depths.pop() as number;
    if (depth > maxDepth) return `nested deeper than ${maxDepth} levels`;
    nodes += 1;
    if (Array.isArray(current)) {
      nodes += current.length;
      if (nodes > maxNodes) return `more than ${maxNodes} values`;
      for (const child of current) {
        if (typeof child === 'object' && child !== null) {
          stack.push(child as object);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    const record = current as Record<string, unknown>;
    let children = 0;
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      children++;
      const child = record[key];
      if (typeof child === 'object' && child !== null) {
        stack.push(child);
        depths.push(depth + 1);
      }
    }
    nodes += children;
    if (nodes > maxNodes) return `more than ${maxNodes} values`;
  }
  return undefined;
}
