import type { InputRequest } from '@parley/core';

import { readAnswer } from '../ask/answers.ts';
import { checkAskKey } from '../ask/builders.ts';
import { checkJson } from '../utils/json.ts';
import { AskSuspension, suspensions } from './askSuspension.ts';
import type { AskResolver, FlowReplay } from './flowReplay.ts';

/**
 * Asking by replay: the modern era's `ctx.ask`. The handler runs again from the top every
 * round; an ask the flow's record has an answer to returns it at once, and the first one with
 * no answer ends the run with an {@link AskSuspension} (which the round turns into its ask).
 * `owner` is the run's context: the suspension is kept by it, so a handler that catches the
 * suspension still ends its round asking.
 */

/** Asks, by key, as `ctx.askAll` takes them (in order). */
export type KeyedAsks = readonly (readonly [string, InputRequest])[];

/** The suspension that ends this run at its unanswered questions (made by the first). */
function suspensionOf(owner: object): AskSuspension {
  let suspension = suspensions.get(owner);
  if (suspension === undefined) {
    suspension = new AskSuspension();
    suspensions.set(owner, suspension);
  }
  return suspension;
}

/**
 * One ask the client can answer: its answer from the record, or the suspension that ends the
 * run asking it (returned, not thrown: the caller rejects with it, and a throw here would only
 * be caught there).
 */
function replayOne(owner: object, resolver: AskResolver, key: string, ask: InputRequest): unknown {
  const found = resolver.find(key, ask);
  if (found === undefined) {
    const suspension = suspensionOf(owner);
    suspension.add(key, ask);
    return suspension;
  }
  const answer = readAnswer(ask, found.answer, key);
  resolver.record(key, found);
  // Another branch of this run (a `Promise.all`, say) already ended the round.
  return suspensions.get(owner) ?? answer;
}

/** `ctx.ask` of one ask the client can answer: its answer, or a rejection with the suspension. */
export function replayAsk(
  owner: object,
  resolver: AskResolver,
  key: string,
  ask: InputRequest,
): Promise<unknown> {
  const replayed = replayOne(owner, resolver, key, ask);
  return replayed instanceof AskSuspension
    ? rejectOnceAwaited(replayed)
    : Promise.resolve(replayed);
}

/**
 * Several asks: the answers the record has, the fallback's answers to what this client cannot
 * answer, and, when any answerable ask has no answer yet, the end of the run asking them all.
 */
export async function replayAll(
  owner: object,
  resolver: AskResolver,
  asks: Readonly<Record<string, InputRequest>>,
  canAnswer: (ask: InputRequest) => boolean,
  fallback: (asks: KeyedAsks) => Promise<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  const missing: [string, InputRequest][] = [];
  let unanswerable: [string, InputRequest][] | undefined;
  for (const key of Object.keys(asks)) {
    const ask = asks[key]!;
    const found = resolver.find(key, ask);
    if (found !== undefined) {
      answers[key] = readAnswer(ask, found.answer, key);
      resolver.record(key, found);
    } else if (canAnswer(ask)) missing.push([key, ask]);
    else (unanswerable ??= []).push([key, ask]);
  }
  // What this client cannot answer goes to the tool's fallback (the arguments it was called
  // with, say), every run: never recorded, since the same arguments come with every round.
  if (unanswerable !== undefined) Object.assign(answers, await fallback(unanswerable));
  if (missing.length > 0 || suspensions.has(owner)) {
    const suspension = suspensionOf(owner);
    for (const [key, ask] of missing) suspension.add(key, ask);
    throw suspension;
  }
  return answers;
}

/**
 * A promise rejected with `error` a microtask from now, once the caller has awaited it. The
 * suspension that ends an asking round is a rejection on every such round; a promise rejected
 * before anyone listens goes through Node's unhandled-rejection bookkeeping first, which cost
 * more than the rest of the suspension.
 */
export function rejectOnceAwaited<T>(error: unknown): Promise<T> {
  return new Promise<T>((_resolve, reject) => queueMicrotask(() => reject(error)));
}

/**
 * `ctx.remember(key, fn)`: the value `fn` computed on an earlier round of the flow, from the
 * record; else `fn`'s value now, as JSON would carry it, kept in the record (`replay`) for the
 * rounds after. Without a record (pushing eras run the handler once) it is just computed.
 */
export async function remembered<T>(
  replay: FlowReplay | undefined,
  key: string,
  fn: () => T | Promise<T>,
): Promise<T> {
  checkAskKey('ctx.remember()', key);
  if (typeof fn !== 'function') {
    throw new TypeError(`ctx.remember('${key}'): give a function that computes the value.`);
  }
  const recalled = replay?.recall(key);
  if (recalled !== undefined) return recalled.value as T;
  const value = await fn();
  checkJson(`ctx.remember('${key}')`, value);
  const copy = value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as T);
  replay?.keep(key, copy);
  return copy as T;
}
