/**
 * Cross-copy `instanceof` for Parley's classes.
 *
 * Packages ship as ESM and CJS, and a server and a client may each load their own copy of
 * `@parley/core`, so plain prototype `instanceof` fails across copies: middleware holding one
 * copy's `InputRequiredToolResult` would misread an ask made by the other. Every instance of a
 * branded class therefore carries (through its class's prototype) the brands of its class chain
 * under a global symbol, and each branded class answers `instanceof` from those brands.
 */

const BRANDS: unique symbol = Symbol.for('@parley/core.brands') as never;

/** A class that takes part: it declares its own global `brand`. */
interface BrandedClass {
  readonly brand?: string;
}

/** The brands of a class and every ancestor that declares one, most specific first. */
export function brandsOf(target: unknown): string[] {
  const brands: string[] = [];
  for (let ctor = target; typeof ctor === 'function'; ctor = Object.getPrototypeOf(ctor)) {
    if (Object.hasOwn(ctor, 'brand')) brands.push((ctor as BrandedClass).brand as string);
  }
  return brands;
}

/**
 * Stamp the instances of `newTarget` with the brands of its class chain (call from a constructor
 * with `new.target`). The brands go on the class's prototype, once: results and answers are made
 * on every round, and a property defined on each instance (with a new frozen array) cost more
 * than the rest of their construction. A class whose prototype cannot take them (frozen) has
 * each instance stamped instead.
 */
export function stampBrands(instance: object, newTarget: unknown): readonly string[] {
  const candidate = (newTarget as { prototype?: unknown } | undefined)?.prototype;
  const prototype =
    typeof newTarget === 'function' && typeof candidate === 'object' && candidate !== null
      ? candidate
      : undefined;
  if (prototype !== undefined && Object.hasOwn(prototype, BRANDS))
    return (prototype as { [BRANDS]: readonly string[] })[BRANDS];
  const brands = Object.freeze(brandsOf(newTarget));
  const holder = prototype !== undefined && Object.isExtensible(prototype) ? prototype : instance;
  Object.defineProperty(holder, BRANDS, { value: brands });
  return brands;
}

/**
 * The `Symbol.hasInstance` of a branded class. A subclass without its own brand (an author's
 * `class MyResult extends ToolResult`) falls back to the prototype chain.
 */
export function hasBrand(ctor: object, value: unknown): boolean {
  if (!Object.hasOwn(ctor, 'brand')) {
    return Function.prototype[Symbol.hasInstance].call(ctor, value);
  }
  if (typeof value !== 'object' || value === null) return false;
  const brands = (value as { [BRANDS]?: unknown })[BRANDS];
  return Array.isArray(brands) && brands.includes((ctor as BrandedClass).brand);
}
