/**
 * The base of every error Parley raises on purpose.
 *
 * Packages are shipped as ESM and CJS, and a server and a client may each load their own copy of
 * `@parley/core`, so plain prototype `instanceof` would fail across copies. Every instance
 * therefore carries the brands of its class chain under a global symbol, and each Parley error
 * class answers `instanceof` from those brands.
 */

const BRANDS: unique symbol = Symbol.for('@parley/core.errorBrands') as never;

/** Every `code` a Parley error can carry. */
export type ParleyErrorCode =
  | 'era_mismatch'
  | 'unsupported_capability'
  | 'rounds_exceeded'
  | 'invalid_answer'
  | 'invalid_request_state'
  | 'invalid_input_responses'
  | 'unsupported_protocol_version'
  | 'url_elicitation_required'
  | 'internal';

/** Options every Parley error takes. */
export interface ParleyErrorOptions<TData> {
  data?: TData;
  cause?: unknown;
}

interface BrandedClass {
  readonly brand?: string;
}

function brandsOf(target: unknown): string[] {
  const brands: string[] = [];
  for (let ctor = target; typeof ctor === 'function'; ctor = Object.getPrototypeOf(ctor)) {
    if (Object.hasOwn(ctor, 'brand')) brands.push((ctor as BrandedClass).brand as string);
  }
  return brands;
}

/** The base class: a string `code`, optional structured `data`, and the standard `cause`. */
export class ParleyError<TData = unknown> extends Error {
  /** The global brand of this class; subclasses that want cross-copy `instanceof` set their own. */
  static readonly brand: string = '@parley/core:ParleyError';

  readonly code: ParleyErrorCode;
  readonly data: TData | undefined;
  declare readonly [BRANDS]: readonly string[];

  constructor(code: ParleyErrorCode, message: string, options: ParleyErrorOptions<TData> = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.data = options.data;
    const brands = brandsOf(new.target);
    Object.defineProperty(this, BRANDS, { value: Object.freeze(brands) });
    this.name = (brands[0] ?? ParleyError.brand).split(':')[1] ?? 'ParleyError';
  }

  /**
   * `instanceof` by brand, so an error made by another copy of this package (ESM beside CJS, or
   * a server and a client bundling their own) still matches. Subclasses without their own brand
   * (an author's `class MyError extends ParleyError`) fall back to the prototype chain.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (!Object.hasOwn(this, 'brand'))
      return Function.prototype[Symbol.hasInstance].call(this, value);
    if (typeof value !== 'object' || value === null) return false;
    const brands = (value as { [BRANDS]?: unknown })[BRANDS];
    return Array.isArray(brands) && brands.includes((this as BrandedClass).brand);
  }

  /** A plain object for logs and serialisation. */
  toJSON(): { name: string; code: ParleyErrorCode; message: string; data?: TData } {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      ...(this.data !== undefined ? { data: this.data } : {}),
    };
  }
}
