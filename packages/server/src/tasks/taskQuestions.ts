import {
  UnsupportedCapabilityError,
  clientFeatureOf,
  missingCapabilities,
  supportsRequest,
  type InputRequest,
  type InputRequests,
} from '@parley/core';

import { askInfoOf } from '../ask/builders.ts';
import { askedEntryOf } from '../ask/asked.ts';
import { elicitRequestFor } from '../ask/versionSchemas.ts';
import type { TaskRecord } from './taskRecord.ts';
import type { NewInput } from './taskTransitions.ts';

/**
 * What an `io.ask` inside a task puts on the task: its questions checked against the
 * capabilities of the client that started the task, and written in that client's version.
 * A pure function of the task's scope and the questions, apart from the waiting for answers
 * (taskWaiters.ts), so the rules for what may be asked read in one place.
 */

/** One question as it goes on the task, before it is tied to the handler waiting for it. */
export type TaskQuestion = Omit<NewInput, 'waiter'>;

/**
 * The questions as they go on the task: only those the client declared it can answer
 * (optional ones it cannot are left out), elicitations in the client's version's vocabulary.
 */
export function taskQuestionsFor(record: TaskRecord, inputs: InputRequests): TaskQuestion[] {
  if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) {
    throw new TypeError('ask: give an object of input requests by key.');
  }
  const { clientCapabilities, protocolVersion } = record.scope;
  const unanswerable: InputRequest[] = [];
  const questions: TaskQuestion[] = [];
  for (const [name, request] of Object.entries(inputs)) {
    if (!supportsRequest(clientCapabilities, request)) {
      if (askInfoOf(request)?.optional !== true) unanswerable.push(request);
      continue;
    }
    questions.push({
      name,
      request:
        request.method === 'elicitation/create'
          ? elicitRequestFor(request, protocolVersion)
          : request,
      asked: askedEntryOf(request),
    });
  }
  const missing = missingCapabilities(clientCapabilities, unanswerable);
  if (missing !== undefined) {
    throw new UnsupportedCapabilityError(
      { feature: clientFeatureOf(missing), requiredCapabilities: missing },
      {
        message: `The client that started this task did not declare the capabilities its questions need: ${JSON.stringify(missing)}`,
      },
    );
  }
  return questions;
}
