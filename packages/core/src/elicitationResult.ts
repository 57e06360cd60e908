import { hasBrand, stampBrands } from './brands.ts';

/**
 * The outcome of asking the user, as an author sees it: accepted with typed data, declined, or
 * cancelled. Classes, so both `switch (result.action)` and `instanceof` narrow; branded, so
 * `instanceof` holds across the ESM and CJS copies of this package.
 */

/** The user answered; `data` is the validated, unwrapped value of the requested type. */
export class AcceptedElicitation<TData> {
  static readonly brand: string = '@parley/core:AcceptedElicitation';
  readonly action = 'accept' as const;
  readonly data: TData;

  constructor(data: TData) {
    this.data = data;
    stampBrands(this, new.target);
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(this, value);
  }
}

/** The user explicitly refused to answer. */
export class DeclinedElicitation {
  static readonly brand: string = '@parley/core:DeclinedElicitation';
  readonly action = 'decline' as const;

  constructor() {
    stampBrands(this, new.target);
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(this, value);
  }
}

/** The user dismissed the request without choosing (closed the dialog, pressed Escape). */
export class CancelledElicitation {
  static readonly brand: string = '@parley/core:CancelledElicitation';
  readonly action = 'cancel' as const;

  constructor() {
    stampBrands(this, new.target);
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(this, value);
  }
}

/** What asking the user resolves to. Decline and cancel are answers, not errors. */
export type ElicitationResult<TData> =
  AcceptedElicitation<TData> | DeclinedElicitation | CancelledElicitation;

/** The three ways a user can respond to an elicitation. */
export type ElicitationAction = ElicitationResult<unknown>['action'];
