import type { Counter, Histogram, Meter } from '@opentelemetry/api';

import { METRIC } from './attributes.ts';

/** The server's instruments (see the docs' telemetry page for what each measures). */
export interface Instruments {
  operationDuration: Histogram;
  flowDuration: Histogram;
  flowRounds: Histogram;
  answerTime: Histogram;
  reasks: Counter;
  answers: Counter;
  singleUseRefusals: Counter;
  stateSize: Histogram;
}

export function instrumentsOf(meter: Meter): Instruments {
  const seconds = (name: string, description: string) =>
    meter.createHistogram(name, { unit: 's', description });
  return {
    operationDuration: seconds(
      METRIC.operationDuration,
      'MCP request duration as observed on the server, from receipt to reply.',
    ),
    flowDuration: seconds(
      METRIC.flowDuration,
      "From a flow's first request to its final result, every round and the person's answers included.",
    ),
    flowRounds: meter.createHistogram(METRIC.flowRounds, {
      unit: '{round}',
      description:
        'Rounds per finished flow: modern era, its requests; handshake era, 1 plus the requests the server pushed.',
      advice: { explicitBucketBoundaries: [1, 2, 3, 4, 5, 6, 8, 10, 15, 20] },
    }),
    answerTime: seconds(
      METRIC.answerTime,
      'Time to answer: from an ask leaving the server to its answer arriving.',
    ),
    reasks: meter.createCounter(METRIC.reasks, {
      unit: '{ask}',
      description: 'Questions asked again because their answer did not fit.',
    }),
    answers: meter.createCounter(METRIC.answers, {
      unit: '{answer}',
      description: 'Answers to elicitations, by parley.answer.action (accept, decline, cancel).',
    }),
    singleUseRefusals: meter.createCounter(METRIC.singleUseRefusals, {
      unit: '{request}',
      description: 'Rounds refused because their requestState was already used.',
    }),
    stateSize: meter.createHistogram(METRIC.stateSize, {
      unit: 'By',
      description: 'Size of each sealed requestState the server sends.',
      advice: {
        explicitBucketBoundaries: [256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536],
      },
    }),
  };
}
