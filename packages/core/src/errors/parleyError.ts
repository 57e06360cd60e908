import { hasBrand, stampBrands } from '../brands.ts';

/**
 * The base of every error Parley raises on purpose. Branded (see `brands.ts`), so `instanceof`
 * holds across the ESM and CJS copies of this package.
 */

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
  | 'session_closed'
  | 'store_unavailable'
  | 'task_cancelled'
  | 'internal';

/** Options every Parley error takes. */
export interface ParleyErrorOptions<TData> {
  data?: TData;
  cause?: unknown;
}

/** The base class: a string `code`, optional structured `data`, and the standard `cause`. */
export class ParleyError<TData = unknown> extends Error {
  /** The global brand of this class; subclasses that want cross-copy `instanceof` set their own. */
  static readonly brand: string = '@parley/core:ParleyError';

  readonly code: ParleyErrorCode;
  readonly data: TData | undefined;
  constructor(code: ParleyErrorCode, message: string, options: ParleyErrorOptions<TData> = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.data = options.data;
    const brands = stampBrands(this, new.target);
    this.name = (brands[0] ?? ParleyError.brand).split(':')[1] ?? 'ParleyError';
  }

  /**
   * `instanceof` by brand, so an error made by another copy of this package (ESM beside CJS, or
   * a server and a client bundling their own) still matches. Subclasses without their own brand
   * (an author's `class MyError extends ParleyError`) fall back to the prototype chain.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(this, value);
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
