/**
 * Parley's MCP App: the page a host that draws MCP Apps shows when a Parley server asks a person
 * something the host cannot ask itself. Bundled with its dependencies into one HTML document
 * (`scripts/buildMcpApp.mjs` writes `html.ts`), served by the server as `ui://parley/ask`.
 *
 * Two ways in, one form (`renderElicitation`):
 *
 * - the App route: the host shows the App for a tool call whose result carries the questions and
 *   the sealed state (`_meta['dev.parley/ask']`); the person's answers go back through the
 *   app-only tool `parley_answer`, whose result is the next question, the same one asked again
 *   with what was wrong, or the tool's outcome, which the App shows and tells the model;
 * - app-rendered elicitation (SEP-3118): the host hands the App an `elicitation/create` request
 *   and the App answers it with the `ElicitResult`; the host sends it to the server as its own
 *   answer. The App never calls the server itself then.
 */
import { App } from '@modelcontextprotocol/ext-apps';
import type { ElicitResult } from '@parley/core';

import { renderElicitation } from '../renderElicitation.ts';
import type { ElicitRequestParams } from '../types.ts';

/** Where the server keeps what the App draws, in a tool result's `_meta`. */
const ASK_META = 'dev.parley/ask';
/** The app-only tool the answers go back with. */
const ANSWER_TOOL = 'parley_answer';

interface AppAsk {
  tool: string;
  arguments: Record<string, unknown>;
  inputRequests: Record<string, { method: string; params?: unknown }>;
  requestState: string;
}

interface ToolResult {
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

const heading = document.querySelector<HTMLElement>('#heading')!;
const form = document.querySelector<HTMLElement>('#form')!;
const status = document.querySelector<HTMLElement>('#status')!;

function askOf(result: ToolResult): AppAsk | undefined {
  const ask = result._meta?.[ASK_META] as AppAsk | undefined;
  return typeof ask?.requestState === 'string' && typeof ask.tool === 'string' ? ask : undefined;
}

function textOf(result: ToolResult): string {
  return (result.content ?? [])
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('\n');
}

function say(text: string, kind: 'status' | 'alert' = 'status'): void {
  status.setAttribute('role', kind);
  status.textContent = text;
}

// The App declares SEP-3118's `elicitation` capability: the host may hand it a form to draw.
const app = new App(
  { name: 'Parley ask', version: '1.0.0' },
  { elicitation: {} } as ConstructorParameters<typeof App>[1],
  { autoResize: true },
);

/**
 * The person's answers to one round's questions, asked one after another; only forms reach the
 * App. Decline or cancel ends the round: what is left is not asked.
 */
async function answersTo(ask: AppAsk): Promise<Record<string, ElicitResult>> {
  const answers: Record<string, ElicitResult> = {};
  for (const [key, request] of Object.entries(ask.inputRequests)) {
    if (request.method !== 'elicitation/create') continue;
    const answer = await renderElicitation(form, request.params as ElicitRequestParams);
    answers[key] = answer;
    if (answer.action !== 'accept') break;
  }
  return answers;
}

/** Tell the host's model how the call ended, once the person answered through the App. */
async function tellModel(tool: string, result: ToolResult): Promise<void> {
  const outcome = textOf(result) || (result.isError === true ? 'The call failed.' : 'Done.');
  const capabilities = app.getHostCapabilities();
  if (capabilities?.updateModelContext !== undefined) {
    await app.updateModelContext({
      content: [{ type: 'text', text: `${tool}, answered by the user in the form: ${outcome}` }],
      ...(result.structuredContent !== undefined
        ? { structuredContent: result.structuredContent }
        : {}),
    });
  }
  if (capabilities?.message !== undefined) {
    await app.sendMessage({
      role: 'user',
      content: [{ type: 'text', text: `I answered ${tool}'s questions in the form. ${outcome}` }],
    });
  }
}

/** Show a tool result: the next questions, or the outcome. */
async function show(result: ToolResult, answered: boolean): Promise<void> {
  const ask = askOf(result);
  if (ask === undefined) {
    heading.textContent = result.isError === true ? 'It did not work' : 'Done';
    say(textOf(result), result.isError === true ? 'alert' : 'status');
    if (answered) await tellModel(lastTool, result);
    return;
  }
  lastTool = ask.tool;
  heading.textContent = `${ask.tool} needs your answer`;
  say('');
  const inputResponses = await answersTo(ask);
  say('Sending your answer…');
  let next: ToolResult;
  try {
    next = (await app.callServerTool({
      name: ANSWER_TOOL,
      arguments: {
        tool: ask.tool,
        arguments: ask.arguments,
        requestState: ask.requestState,
        inputResponses,
      },
    })) as ToolResult;
  } catch (error) {
    heading.textContent = 'Your answer was not taken';
    say(error instanceof Error ? error.message : String(error), 'alert');
    return;
  }
  await show(next, true);
}

let lastTool = '';

app.ontoolresult = (result) => {
  void show(result as ToolResult, false);
};

// SEP-3118: the host's elicitation, drawn here; the answer is the request's result.
app.setRequestHandler(
  'elicitation/create' as never,
  (async (request: { params: ElicitRequestParams }) => {
    heading.textContent = 'Your answer is needed';
    say('');
    const answer = await renderElicitation(form, request.params);
    say(answer.action === 'accept' ? 'Sent.' : '');
    return answer;
  }) as never,
);

await app.connect();
