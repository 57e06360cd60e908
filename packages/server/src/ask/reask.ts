import {
  InvalidAnswerError,
  canonicalJson,
  type ElicitRequest,
  type ElicitationSchema,
  type InputResponse,
} from '@parley/core';
import {
  compileResponseType,
  fieldLabel,
  reaskMessage,
  type CompiledResponseType,
} from '@parley/schema';

import { elicitationShapeProblem, type FormQuestion } from './asked.ts';

/**
 * Bad answers are asked again. A person who typed "tomorow" into a date field should see the
 * same question again with what was wrong, in the words of the form they saw (the field's
 * title, never Parley's internal `value` wrapper), not lose the whole flow to an error. The
 * re-ask may quote their answer back to them; nothing else does (errors, logs, `onError`).
 */

/** What is wrong with one answer. */
export interface AnswerProblem {
  /** The `inputRequests` key it answered; absent for a handshake-era `ctx.elicit`. */
  key?: string;
  /** The field at fault; absent when the answer as a whole is wrong. */
  field?: string;
  /** The kind of problem, without the answer: safe to log. */
  reason: string;
  /** The same, in words that may quote the answer: only for the re-ask the person reads. */
  reasonWithAnswer: string;
}

/** A question compiled once, with the canonical text of its schema. */
interface CompiledQuestion {
  check: CompiledResponseType<unknown>;
  schemaText: string;
}

/** Compiled questions by digest: the same few questions come back round after round. */
const compiledQuestions = new Map<string, CompiledQuestion>();
const MAX_COMPILED = 500;

function compiledQuestion(digest: string, schema: ElicitationSchema): CompiledQuestion {
  let found = compiledQuestions.get(digest);
  if (found === undefined) {
    found = {
      check: compileResponseType(schema as never) as CompiledResponseType<unknown>,
      schemaText: canonicalJson(schema),
    };
    if (compiledQuestions.size >= MAX_COMPILED) compiledQuestions.clear();
    compiledQuestions.set(digest, found);
  }
  return found;
}

/**
 * Accepted content that fit its question as sent, with the canonical text of that question's
 * schema: a handler reading the answer with a response type of the same schema need not check
 * the same content against the same schema a second time in one round.
 */
const screened = new WeakMap<object, string>();

/** True when `content` was found to fit a schema whose canonical text is `schemaText`. */
export function screenedAgainst(content: unknown, schemaText: string): boolean {
  return typeof content === 'object' && content !== null && screened.get(content) === schemaText;
}

/**
 * What is wrong with an elicitation answer to `question`, or `undefined` when it fits (decline
 * and cancel always fit: they are answers).
 */
export function answerProblem(
  key: string,
  answer: InputResponse,
  question: FormQuestion,
  digest: string,
): AnswerProblem | undefined {
  const entry = answer as unknown as Record<string, unknown>;
  const shape = elicitationShapeProblem(entry);
  if (shape !== undefined) return { key, reason: shape, reasonWithAnswer: shape };
  if (entry.action !== 'accept') return undefined;
  try {
    const compiled = compiledQuestion(digest, question.requestedSchema);
    const content = entry.content ?? {};
    compiled.check.parse(content);
    screened.set(content as object, compiled.schemaText);
    return undefined;
  } catch (error) {
    if (!(error instanceof InvalidAnswerError)) throw error;
    return problemOf(key, error);
  }
}

/** An `InvalidAnswerError` as an {@link AnswerProblem} under `key`. */
export function problemOf(key: string | undefined, error: InvalidAnswerError): AnswerProblem {
  const field = error.data?.field;
  return {
    ...(key !== undefined ? { key } : {}),
    ...(field !== undefined ? { field } : {}),
    reason: error.data?.reason ?? error.message,
    reasonWithAnswer: error.reasonWithAnswer(),
  };
}

function capitalised(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1);
}

/**
 * The reason, labelled the way the person saw the field. It may quote their answer: it goes to
 * them alone, in the re-ask.
 */
export function userFacingReason(problem: AnswerProblem, schema: ElicitationSchema): string {
  const { field, reasonWithAnswer: reason } = problem;
  if (field === undefined) return capitalised(reason);
  const property = Object.hasOwn(schema.properties, field) ? schema.properties[field] : undefined;
  const label = fieldLabel({
    name: field,
    ...(property?.title !== undefined ? { title: property.title } : {}),
  });
  return label === undefined ? capitalised(reason) : `${label}: ${reason}`;
}

/** The same question again, saying what was wrong with the last answer. */
export function reaskRequest(question: FormQuestion, problem: AnswerProblem): ElicitRequest {
  const why = userFacingReason(problem, question.requestedSchema);
  return {
    method: 'elicitation/create',
    params: {
      mode: 'form',
      message: reaskMessage(question.message, why),
      requestedSchema: question.requestedSchema,
    },
  };
}
