/**
 * The outcome of asking the user, as an author sees it: accepted with typed data, declined, or
 * cancelled. Classes, so both `switch (result.action)` and `instanceof` narrow.
 */

/** The user answered; `data` is the validated, unwrapped value of the requested type. */
export class AcceptedElicitation<TData> {
  readonly action = 'accept' as const;
  readonly data: TData;

  constructor(data: TData) {
    this.data = data;
  }
}

/** The user explicitly refused to answer. */
export class DeclinedElicitation {
  readonly action = 'decline' as const;
}

/** The user dismissed the request without choosing (closed the dialog, pressed Escape). */
export class CancelledElicitation {
  readonly action = 'cancel' as const;
}

/** What asking the user resolves to. Decline and cancel are answers, not errors. */
export type ElicitationResult<TData> =
  AcceptedElicitation<TData> | DeclinedElicitation | CancelledElicitation;

/** The three ways a user can respond to an elicitation. */
export type ElicitationAction = ElicitationResult<unknown>['action'];
