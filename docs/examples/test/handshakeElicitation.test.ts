/**
 * The first half of the elicitation page: `ctx.elicit()` on handshake-era connections. Each
 * example server is driven by the Parley client in-process; the schemas, warnings and errors the
 * page quotes are compared with what actually crossed the wire.
 */
import { describe, expect, test } from 'vitest';

import {
  Client,
  type ElicitationAnswer,
  type ElicitFormParams,
  type ElicitUrlParams,
  type InProcessServer,
  type ResponseBuilder,
} from '@parley/client';

import * as clientRequirements from '../elicitation/clientRequirements.ts';
import * as confirmations from '../elicitation/confirmations.ts';
import * as constrainedOptions from '../elicitation/constrainedOptions.ts';
import * as defaults from '../elicitation/defaults.ts';
import * as fieldLabels from '../elicitation/fieldLabels.ts';
import * as handshake from '../elicitation/handshake.ts';
import * as multiSelect from '../elicitation/multiSelect.ts';
import * as multiTurn from '../elicitation/multiTurn.ts';
import * as scalars from '../elicitation/scalars.ts';
import * as structured from '../elicitation/structured.ts';
import * as titledOptions from '../elicitation/titledOptions.ts';
import * as urlMode from '../elicitation/urlMode.ts';
import { consoleWarnings, quoted, quotedJson, textOf } from './support.ts';

type Answer = (
  message: string,
  responseType: ResponseBuilder,
  params: ElicitFormParams | ElicitUrlParams,
) => ElicitationAnswer;

/** Calls `tool` on a handshake-era connection, answering with `answer`; records what was asked. */
async function call(server: InProcessServer, tool: string, answer: Answer) {
  const asked: (ElicitFormParams | ElicitUrlParams)[] = [];
  await using client = new Client(server, {
    mode: 'handshake',
    elicitationHandler: (message, responseType, params) => {
      asked.push(params);
      return answer(message, responseType, params);
    },
  });
  await client.connect();
  const result = await client.callTool(tool);
  const schemas = asked.map((params) =>
    params.mode === 'url' ? undefined : params.requestedSchema,
  );
  return { text: textOf(result), isError: result.isError, asked, schemas };
}

const decline: Answer = () => ({ action: 'decline' });
const cancel: Answer = () => ({ action: 'cancel' });

describe('requesting input on handshake connections', () => {
  test('collect_user_info: accept, decline, cancel', async () => {
    const accept: Answer = (_m, responseType) =>
      responseType({ name: 'Jayden', age: 18 });
    expect(
      (await call(handshake.createServer(), 'collect_user_info', accept))
        .text,
    ).toBe('Hello Jayden, you are 18 years old');
    expect(
      (await call(handshake.createServer(), 'collect_user_info', decline))
        .text,
    ).toBe('Information not provided');
    expect(
      (await call(handshake.createServer(), 'collect_user_info', cancel))
        .text,
    ).toBe('Operation cancelled');
  });

  test.each(['pattern_example', 'switch_example'])(
    '%s narrows on each action',
    async (tool) => {
      expect(
        (await call(handshake.createServer(), tool, () => 'Ada')).text,
      ).toBe('Hello Ada!');
      expect(
        (await call(handshake.createServer(), tool, decline)).text,
      ).toBe('No name provided');
      expect(
        (await call(handshake.createServer(), tool, cancel)).text,
      ).toBe('Operation cancelled');
    },
  );

  test('multi-turn: three questions in one call', async () => {
    const answers: Record<string, ElicitationAnswer> = {
      "What's the meeting title?": 'Standup',
      'Duration in minutes?': 15,
      'Is this urgent?': 'yes',
    };
    const result = await call(
      multiTurn.createServer(),
      'plan_meeting',
      (m) => answers[m] ?? {},
    );
    expect(result.text).toBe(
      "Meeting 'Standup' for 15 minutes (Urgent: true)",
    );
    expect(result.asked.map((params) => params.message)).toEqual(
      Object.keys(answers),
    );
  });

  test('client requirements: no elicitation handler, no elicitation', async () => {
    await using client = new Client(clientRequirements.createServer(), {
      mode: 'handshake',
    });
    await client.connect();
    expect(textOf(await client.callTool('optional_feedback'))).toBe(
      quoted('elicitation/clientRequirements.out.txt'),
    );
  });
});

describe('schema and response types', () => {
  test('scalars are wrapped in a value field and unwrapped again', async () => {
    const server = scalars.createServer({ onWarning: () => {} });
    const name = await call(server, 'get_user_name', () => 'Ada');
    expect(name.text).toBe('Hello, Ada!');
    expect(name.schemas[0]).toEqual(
      quotedJson('elicitation/scalars.schema.json'),
    );
    expect((await call(server, 'pick_a_number', () => 7)).text).toBe(
      'You picked 7',
    );
    expect((await call(server, 'pick_a_boolean', () => true)).text).toBe(
      'You picked true',
    );
  });

  test('an unlabelled wrapper gets the warning the page quotes', async () => {
    const warnings = await consoleWarnings(() =>
      call(scalars.createServer(), 'get_user_name', () => 'Ada'),
    );
    expect(warnings).toEqual([quoted('elicitation/scalars.warning.txt')]);
  });

  test('responseTitle and responseDescription label the wrapper', async () => {
    const result = await call(
      fieldLabels.createServer(),
      'confirm_purchase',
      () => true,
    );
    expect(result.text).toBe('Purchased');
    expect(result.schemas[0]).toEqual(
      quotedJson('elicitation/fieldLabels.schema.json'),
    );
    expect(
      (
        await call(
          fieldLabels.createServer(),
          'confirm_purchase',
          () => false,
        )
      ).text,
    ).toBe('Declined');
  });

  test('fields of an object carry their own labels; labels beside an object throw', async () => {
    const result = await call(
      fieldLabels.createServer(),
      'delivery_details',
      () => ({
        street: 'Main St 1',
      }),
    );
    expect(result.text).toBe('Delivering to Main St 1');
    expect(result.schemas[0]?.properties['street']).toMatchObject({
      title: 'Street',
    });
    expect(() => fieldLabels.labelsOnAnObject()).toThrow(TypeError);
    expect(() => fieldLabels.labelsOnAnObject()).toThrow(
      quoted('elicitation/fieldLabels.error.txt').replace(
        /^TypeError: /,
        '',
      ),
    );
  });

  test('confirmations: Boolean, and null with its warning', async () => {
    expect(
      (
        await call(
          confirmations.createServer(),
          'approve_action',
          () => true,
        )
      ).text,
    ).toBe('Action done');
    const rejected = await call(
      confirmations.createServer(),
      'approve_action',
      () => false,
    );
    expect(rejected).toMatchObject({
      text: 'Action rejected',
      isError: true,
    });

    let acknowledged: Awaited<ReturnType<typeof call>> | undefined;
    const warnings = await consoleWarnings(async () => {
      acknowledged = await call(
        confirmations.createServer(),
        'acknowledge',
        (_m, rt) => rt({}),
      );
    });
    expect(acknowledged?.text).toBe('Acknowledged');
    expect(acknowledged?.schemas[0]).toEqual({
      type: 'object',
      properties: {},
    });
    expect(warnings).toEqual([
      quoted('elicitation/confirmations.warning.txt'),
    ]);
  });

  test.each(['set_priority', 'set_priority_literal', 'set_priority_enum'])(
    'constrained options: %s',
    async (tool) => {
      const result = await call(
        constrainedOptions.createServer(),
        tool,
        () => 'high',
      );
      expect(result.text).toBe('Priority set to: high');
      expect(result.schemas[0]?.properties['value']).toMatchObject({
        enum: ['low', 'medium', 'high'],
      });
      // The client's answer builder refuses an option the schema does not offer, naming the
      // field and the options (not the answer: errors get logged).
      await expect(
        call(constrainedOptions.createServer(), tool, () => 'urgent'),
      ).rejects.toThrow(
        /Invalid answer in field 'value': is not one of the options 'low', 'medium', 'high'$/,
      );
    },
  );

  test.each([
    ['select_tags', 'Selected tags: bug, documentation'],
    ['select_tags_enum', 'Selected: bug, documentation'],
    ['select_up_to_two', 'Selected: bug, documentation'],
  ])('multi-select: %s', async (tool, expected) => {
    const result = await call(multiSelect.createServer(), tool, () => [
      'bug',
      'documentation',
    ]);
    expect(result.text).toBe(expected);
    expect(result.schemas[0]?.properties['value']).toMatchObject({
      type: 'array',
    });
  });

  test('titled options: oneOf for one, items.anyOf for several', async () => {
    const one = await call(
      titledOptions.createServer(),
      'set_priority',
      () => 'high',
    );
    expect(one.text).toBe('Priority set to: high');
    expect(one.schemas[0]).toEqual(
      quotedJson('elicitation/titledOptions.schema.json'),
    );
    const several = await call(
      titledOptions.createServer(),
      'select_priorities',
      () => ['low', 'high'],
    );
    expect(several.text).toBe('Selected: low, high');
    expect(several.schemas[0]).toEqual(
      quotedJson('elicitation/titledOptions.multi.schema.json'),
    );
  });

  test('structured responses, and a nested object refused', async () => {
    const task = await call(
      structured.createServer(),
      'create_task',
      () => ({
        title: 'Write docs',
        description: 'Every page',
        priority: 'high',
        due_date: '2026-09-01',
      }),
    );
    expect(task.text).toBe('Created task: Write docs (Priority: high)');
    const refused = await call(
      structured.createServer(),
      'create_project',
      () => ({}),
    );
    expect(refused).toMatchObject({ isError: true, asked: [] });
    expect(refused.text).toBe(quoted('elicitation/structured.error.txt'));
  });

  test('defaults are on the wire, and fill what the user left out', async () => {
    const result = await call(
      defaults.createServer(),
      'create_task',
      () => ({
        title: 'Write docs',
      }),
    );
    expect(result.text).toBe('Created: Write docs (priority medium)');
    expect(result.schemas[0]).toEqual(
      quotedJson('elicitation/defaults.schema.json'),
    );
  });
});

describe.each(['handshake', 'modern'] as const)(
  'URL mode, %s era',
  (era) => {
    test('the user signs in out of band, then the tool carries on', async () => {
      const urls: string[] = [];
      await using client = new Client(urlMode.createServer(), {
        mode: era,
        elicitationHandler: (_message, _responseType, params) => {
          if (params.mode !== 'url') return { action: 'decline' };
          urls.push(params.url);
          // Stands in for the user finishing the sign-in in their browser.
          urlMode.onSignInCallback(
            new URL(params.url).searchParams.get('session') ?? '',
          );
          return { action: 'accept' };
        },
      });
      await client.connect();
      expect(textOf(await client.callTool('connect_account'))).toBe(
        'Connected',
      );
      expect(urls).toEqual([
        expect.stringMatching(
          /^https:\/\/auth\.example\.com\/connect\?session=/,
        ),
      ]);
    });

    test('declining leaves the account unconnected', async () => {
      await using client = new Client(urlMode.createServer(), {
        mode: era,
        elicitationHandler: () => ({ action: 'decline' }),
      });
      await client.connect();
      expect(textOf(await client.callTool('connect_account'))).toBe(
        'Not connected (decline)',
      );
    });
  },
);
