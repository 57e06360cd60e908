import { expect, test } from 'vitest';

import { exampleTagCount, jsdocExamples } from '../../scripts/jsdocExamples.mjs';

const examples = jsdocExamples();

test('every @example in the packages names a tested docs/examples region', () => {
  // A tag the pattern does not read (no region named, pasted code) would escape the check.
  expect(examples).toHaveLength(exampleTagCount());
});

test('the main entry points carry an @example', () => {
  const where = (source: string, region: string) =>
    examples.some((example) => example.source === source && example.region === region);
  const server = 'packages/server/src/facade/parleyServer.ts';
  const context = 'packages/server/src/handler/context.ts';
  expect({
    ParleyServer: where(server, 'server'),
    'tool / remember / ask': where(server, 'bookFlight') && where(context, 'bookFlight'),
    prompt: where(server, 'prompt'),
    resource: where(server, 'resource'),
    resourceTemplate: where(server, 'resourceTemplate'),
    askAll: where(context, 'askAll'),
    elicitRequest: where('packages/server/src/ask/builders.ts', 'asks'),
    Client: where('packages/client/src/client.ts', 'client'),
  }).toEqual({
    ParleyServer: true,
    'tool / remember / ask': true,
    prompt: true,
    resource: true,
    resourceTemplate: true,
    askAll: true,
    elicitRequest: true,
    Client: true,
  });
  expect(examples.filter((example) => example.source === context)).toHaveLength(3);
});

test.each(examples)(
  '$source:$line shows $file#$region exactly (node scripts/jsdocExamples.mjs --write rewrites it)',
  ({ shown, expected }) => {
    expect(shown).toBe(expected);
  },
);
