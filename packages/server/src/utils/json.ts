/**
 * What `ctx.remember` records must come back the same on the next round, after travelling as
 * JSON in the sealed state. A value JSON would change on the way (a `Date` becoming a string, a
 * `Map` becoming `{}`, `NaN` becoming `null`) is refused where it is recorded, naming the path,
 * instead of surprising the next round.
 */

function describe(value: unknown): string {
  if (typeof value === 'object' && value !== null) {
    return `a ${value.constructor?.name ?? 'class instance'}`;
  }
  return typeof value === 'number' ? String(value) : `a ${typeof value}`;
}

function problemAt(value: unknown, path: string): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${path} is ${describe(value)}`;
    case 'object': {
      if (value === null) return undefined;
      if (Array.isArray(value)) {
        for (let index = 0; index < value.length; index++) {
          const problem = problemAt(value[index], `${path}[${index}]`);
          if (problem !== undefined) return problem;
        }
        return undefined;
      }
      const prototype = Object.getPrototypeOf(value) as unknown;
      if (prototype !== Object.prototype && prototype !== null) {
        return `${path} is ${describe(value)}`;
      }
      for (const [key, item] of Object.entries(value)) {
        if (item === undefined) continue; // dropped by JSON, as an absent key reads back
        const problem = problemAt(item, `${path}.${key}`);
        if (problem !== undefined) return problem;
      }
      return undefined;
    }
    default:
      return `${path} is ${describe(value)}`;
  }
}

/**
 * @throws {TypeError} starting with `api` when `value` is not plain JSON (`undefined` at the top
 *   is allowed: it is remembered as nothing).
 */
export function checkJson(api: string, value: unknown): void {
  if (value === undefined) return;
  const problem = problemAt(value, 'the value');
  if (problem !== undefined) {
    throw new TypeError(
      `${api}: ${problem}, which JSON cannot carry between rounds; convert it (a Date to an ISO string, a Map to an object).`,
    );
  }
}
