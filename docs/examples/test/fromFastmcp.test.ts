/**
 * The "Coming from FastMCP" page sets FastMCP's (Python) examples beside Parley's. The Parley
 * side of each pair is an example the other tests already run in full; here each pair is held
 * together: the Python file defines the tool and asks the question, and the Parley server has a
 * tool of the same name whose first question, asked of a real Parley client, is the same text.
 * The Python files are parsed by python3 (when there is one), so a quoted example stays Python.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { describe, expect, test } from 'vitest';

import { Client, type InProcessServer } from '@parley/client';

import * as bookFlight from '../elicitation/bookFlight.ts';
import * as confirmations from '../elicitation/confirmations.ts';
import * as constrainedOptions from '../elicitation/constrainedOptions.ts';
import * as defaults from '../elicitation/defaults.ts';
import * as handshake from '../elicitation/handshake.ts';
import { createReplica } from '../elicitation/multiReplica.ts';
import * as multiSelect from '../elicitation/multiSelect.ts';
import * as multiTurn from '../elicitation/multiTurn.ts';
import * as scalars from '../elicitation/scalars.ts';
import * as structured from '../elicitation/structured.ts';
import * as titledOptions from '../elicitation/titledOptions.ts';
import { eras, examplesRoot, quoted } from './support.ts';

const python = (file: string) =>
  readFileSync(`${examplesRoot}/${file}`, 'utf8');

interface Pair {
  python: string;
  server: (options: { onError: () => void }) => InProcessServer;
  tool: string;
  /** The first question the tool asks, on both sides. */
  message: string;
}

const pairs: Pair[] = [
  {
    python: 'fromFastmcp/collectUserInfo.py',
    server: handshake.createServer,
    tool: 'collect_user_info',
    message: 'Please provide your information',
  },
  {
    python: 'fromFastmcp/patternMatching.py',
    server: handshake.createServer,
    tool: 'pattern_example',
    message: 'Enter your name:',
  },
  {
    python: 'fromFastmcp/multiTurn.py',
    server: multiTurn.createServer,
    tool: 'plan_meeting',
    message: "What's the meeting title?",
  },
  ...(
    [
      ['get_user_name', "What's your name?"],
      ['pick_a_number', 'Pick a number!'],
      ['pick_a_boolean', 'True or false?'],
    ] as const
  ).map(([tool, message]) => ({
    python: 'fromFastmcp/scalars.py',
    server: scalars.createServer,
    tool,
    message,
  })),
  {
    python: 'fromFastmcp/confirmations.py',
    server: confirmations.createServer,
    tool: 'approve_action',
    message: 'Approve this action?',
  },
  {
    python: 'fromFastmcp/approvalOnly.py',
    server: confirmations.createServer,
    tool: 'approve_action',
    message: 'Approve this action?',
  },
  {
    python: 'fromFastmcp/constrainedOptions.py',
    server: constrainedOptions.createServer,
    tool: 'set_priority',
    message: 'What priority level?',
  },
  {
    python: 'fromFastmcp/titledOptions.py',
    server: titledOptions.createServer,
    tool: 'set_priority',
    message: 'What priority level?',
  },
  {
    python: 'fromFastmcp/multiSelect.py',
    server: multiSelect.createServer,
    tool: 'select_tags',
    message: 'Choose tags',
  },
  {
    python: 'fromFastmcp/titledMultiSelect.py',
    server: titledOptions.createServer,
    tool: 'select_priorities',
    message: 'Choose priorities',
  },
  {
    python: 'fromFastmcp/structured.py',
    server: structured.createServer,
    tool: 'create_task',
    message: 'Please provide task details',
  },
  {
    python: 'fromFastmcp/defaults.py',
    server: defaults.createServer,
    tool: 'create_task',
    message: 'Please provide task details',
  },
  {
    python: 'fromFastmcp/bookFlight.py',
    server: bookFlight.createServer,
    tool: 'book_flight',
    message: 'Where would you like to fly?',
  },
];

/** The first question `tool` asks a real client on `era`'s connection (answered by a cancel). */
async function firstQuestion(
  server: InProcessServer,
  tool: string,
  era: (typeof eras)[number],
): Promise<string | undefined> {
  const asked: string[] = [];
  await using client = new Client(server, {
    mode: era === 'modern' ? 'auto' : 'handshake',
    elicitationHandler: (message) => {
      asked.push(message);
      return { action: 'cancel' };
    },
  });
  await client.connect();
  await client.callTool(tool);
  return asked[0];
}

describe.each(pairs)(
  '$python beside the Parley tool $tool',
  ({ python: file, server, tool, message }) => {
    test('the Python side defines the tool and asks the question', () => {
      const source = python(file);
      expect(source).toContain(
        `@mcp.tool\nasync def ${tool}(ctx: Context)`,
      );
      expect(source).toContain(`"${message}"`);
    });

    test('the Parley side asks the same question first', async () => {
      // The guard example is modern-only; every other tool asks on both eras.
      const onEras = tool === 'book_flight' ? (['modern'] as const) : eras;
      for (const era of onEras)
        // A cancel makes approve_action throw; that error is the tool's own, not this test's.
        expect(
          await firstQuestion(server({ onError: () => {} }), tool, era),
        ).toBe(message);
    });
  },
);

test("the FastMCP client's comment prints what the Parley client prints", () => {
  const printed = /print\(result\.data\) {2}# "([^"]+)"/.exec(
    python('fromFastmcp/clientHandler.py'),
  )?.[1];
  expect(printed).toBeDefined();
  expect(printed).toBe(quoted('elicitation/drivingTheLoop.out.txt'));
});

test('both sides read the key ring from REQUEST_STATE_KEY', () => {
  expect(python('fromFastmcp/multiReplica.py')).toContain(
    'os.environ["REQUEST_STATE_KEY"]',
  );
  expect(() => createReplica({})).toThrow('Set REQUEST_STATE_KEY');
});

const python3 = (() => {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

test.skipIf(!python3)('every Python example parses (python3 ast)', () => {
  const files = [
    ...new Set([
      ...pairs.map(({ python: file }) => file),
      'fromFastmcp/clientHandler.py',
      'fromFastmcp/multiReplica.py',
    ]),
  ];
  const script =
    'import ast, sys\nfor path in sys.argv[1:]:\n    ast.parse(open(path).read(), path)';
  expect(() =>
    execFileSync(
      'python3',
      ['-c', script, ...files.map((file) => `${examplesRoot}/${file}`)],
      { stdio: 'pipe' },
    ),
  ).not.toThrow();
});
