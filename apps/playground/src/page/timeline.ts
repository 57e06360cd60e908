import type {
  GetPromptResult,
  InputRequests,
  InputResponses,
  ReadResourceResult,
  RoundEvent,
  TaskHandle,
  ToolCallResult,
} from '@parley/client';
import { askKeyOf } from '@parley/core';

import { describeError, h, pretty } from './dom.ts';
import { argumentsNeededOf, routeLabel, type RoundRoute } from './routes.ts';
import { followTask, type TaskProgress } from './taskProgress.ts';

/**
 * The timeline: one entry per call, with each round the server asked (the questions and the
 * route each took, the answers given, the size of the state it carried) and, at the end, the
 * result or the error.
 */

export interface CallStart {
  method: 'tools/call' | 'prompts/get' | 'resources/read';
  name: string;
  args: Record<string, unknown> | undefined;
  era: string;
  protocolVersion: string;
}

export type CallOutcome =
  | { kind: 'tool'; result: ToolCallResult }
  | { kind: 'prompt'; result: GetPromptResult }
  | { kind: 'resource'; result: ReadResourceResult };

export interface CallEntry {
  /** A round answered: through the client's handlers (default), or as Parley's App. */
  round(event: RoundEvent, route?: RoundRoute): void;
  /** The call became a task: its progress, as it comes. */
  task(task: TaskHandle): void;
  finish(outcome: CallOutcome): void;
  fail(error: unknown): void;
}

/** The route a question took, next to it. */
function routeBadge(label: string | undefined): Node | null {
  return label === undefined ? null : h('span', { class: 'route' }, `route: ${label}`);
}

function describeAsk(request: InputRequests[string], route: RoundRoute, labelled: boolean): Node {
  // An ask labelled by its message is not said twice.
  const text = labelled ? null : askText(request);
  return h('span', {}, text, text === null ? null : ' ', routeBadge(routeLabel(request, route)));
}

function askText(request: InputRequests[string]): Node {
  switch (request.method) {
    case 'elicitation/create': {
      const params = request.params;
      return h(
        'span',
        {},
        params.message,
        params.mode === 'url' ? h('span', {}, ' — ', h('code', {}, params.url)) : null,
      );
    }
    case 'sampling/createMessage':
      return h('span', {}, `Sampling: ${request.params.messages.length} message(s)`);
    case 'roots/list':
      return h('span', {}, 'Roots');
  }
}

/**
 * What an ask is called on the timeline: its key, in both eras. A handshake-era request carries
 * its key only when the server sends it (Parley's server does, in `_meta`); from another server
 * it has only a JSON-RPC id, a counter that runs on across calls, so it is called by what it
 * asks.
 */
function askLabel(event: RoundEvent, key: string): string {
  if (event.era !== 'handshake') return key;
  const request = event.asked[key]!;
  if (askKeyOf(request.params) !== undefined) return key;
  switch (request.method) {
    case 'elicitation/create':
      return request.params.message;
    case 'sampling/createMessage':
      return 'Sampling';
    case 'roots/list':
      return 'Roots';
  }
}

function keyedList(
  keys: string[],
  label: (key: string) => string,
  describe: (key: string) => Node,
  className: string,
): HTMLUListElement {
  return h(
    'ul',
    { class: className },
    ...keys.map((key) =>
      h('li', { 'data-key': key }, h('code', { class: 'key' }, label(key)), ' ', describe(key)),
    ),
  );
}

function answerText(answer: InputResponses[string] | undefined): Node {
  return h('code', { class: 'answer' }, answer === undefined ? '(none)' : JSON.stringify(answer));
}

function stateBytes(requestState: string | undefined): number {
  return requestState === undefined ? 0 : new TextEncoder().encode(requestState).length;
}

function contentView(result: ToolCallResult): Node[] {
  return result.content.map((block) => {
    if (block.type === 'text') return h('pre', { class: 'text' }, block.text);
    if (block.type === 'image') {
      return h('img', { src: `data:${block.mimeType};base64,${block.data}`, alt: 'image content' });
    }
    return h('pre', { class: 'json' }, pretty(block));
  });
}

/**
 * The questions a result leaves to the conversation (`askFallback: 'arguments'`): what to ask,
 * and the arguments to run the tool again with.
 */
function conversationView(result: ToolCallResult): Node[] {
  const asks = argumentsNeededOf(result);
  if (asks.length === 0) return [];
  return [
    h('h5', {}, 'Questions for the conversation'),
    h(
      'ul',
      { class: 'asked conversation' },
      ...asks.map((ask) =>
        h(
          'li',
          {},
          h('code', { class: 'key' }, ask.key),
          ' ',
          ask.wording ?? ask.message,
          ' ',
          routeBadge('conversation'),
          h(
            'span',
            { class: 'arguments' },
            ask.reason === 'user-only'
              ? ' — only the user may answer, in a client that can ask'
              : ` — run again with ${ask.arguments.join(', ')}`,
          ),
        ),
      ),
    ),
  ];
}

function outcomeView(outcome: CallOutcome): Node[] {
  switch (outcome.kind) {
    case 'tool': {
      const { result } = outcome;
      return [
        ...conversationView(result),
        h('h5', {}, 'Content'),
        ...(result.content.length > 0 ? contentView(result) : [h('p', {}, '(no content)')]),
        ...(result.structuredContent !== undefined
          ? [
              h('h5', {}, 'Structured content'),
              h('pre', { class: 'json' }, pretty(result.structuredContent)),
            ]
          : []),
        h(
          'p',
          { class: result.isError ? 'is-error yes' : 'is-error' },
          h('strong', {}, 'isError: '),
          String(result.isError),
        ),
      ];
    }
    case 'prompt':
      return [
        ...(outcome.result.description !== undefined
          ? [h('p', {}, outcome.result.description)]
          : []),
        h(
          'ol',
          { class: 'messages' },
          ...outcome.result.messages.map((message) =>
            h(
              'li',
              {},
              h('strong', {}, `${message.role}: `),
              message.content.type === 'text'
                ? h('pre', { class: 'text' }, message.content.text)
                : h('pre', { class: 'json' }, pretty(message.content)),
            ),
          ),
        ),
      ];
    case 'resource':
      return outcome.result.contents.map((content) =>
        h(
          'div',
          { class: 'resource-content' },
          h(
            'p',
            {},
            h('code', {}, content.uri),
            content.mimeType !== undefined ? ` (${content.mimeType})` : '',
          ),
          'text' in content && typeof content.text === 'string'
            ? h('pre', { class: 'text' }, content.text)
            : h('pre', { class: 'json' }, pretty(content)),
        ),
      );
  }
}

/** What the page keeps of its timeline. */
export interface Timeline {
  /** Adds a call to the timeline. */
  start(call: CallStart): CallEntry;
  /**
   * A round the client reported, on the entry of the call it belongs to: the latest (the page
   * runs one call at a time), even when the call settled before the client reported its last
   * round (a task that completes as soon as its last answer is in).
   */
  round(event: RoundEvent): void;
}

/** The timeline in `list`. */
export function createTimeline(list: HTMLOListElement): Timeline {
  let latest: CallEntry | undefined;
  return {
    round: (event) => latest?.round(event),
    start(call) {
      latest = entryFor(list, call);
      return latest;
    },
  };
}

/** "Result after 2 rounds"; a handshake-era call asked questions, not rounds. */
function roundsTitle(count: number, era: string): string {
  const unit = era === 'handshake' ? 'question' : 'round';
  return `Result after ${count} ${unit}${count === 1 ? '' : 's'}`;
}

function entryFor(list: HTMLOListElement, call: CallStart): CallEntry {
  const rounds = h('ol', { class: 'rounds', 'aria-label': 'Rounds' });
  const status = h('p', { class: 'status', role: 'status' }, 'Running…');
  const entry = h(
    'li',
    { class: 'call', 'data-state': 'running' },
    h(
      'h3',
      {},
      h('code', {}, call.method),
      ' ',
      call.name,
      h('span', { class: 'era' }, ` · ${call.era} era (${call.protocolVersion})`),
    ),
    call.args !== undefined && Object.keys(call.args).length > 0
      ? h('p', { class: 'args' }, 'Arguments: ', h('code', {}, JSON.stringify(call.args)))
      : null,
    rounds,
    status,
  );
  list.prepend(entry);
  let task: TaskProgress | undefined;
  let resultTitle: HTMLElement | undefined;
  const end = (state: 'done' | 'failed', title: string, ...body: Node[]) => {
    entry.dataset.state = state;
    task?.end();
    status.remove();
    resultTitle = h('h4', {}, title);
    entry.append(
      h(
        'div',
        {
          class: state === 'done' ? 'result' : 'result failed',
          role: state === 'failed' ? 'alert' : undefined,
        },
        resultTitle,
        ...body,
      ),
    );
  };
  return {
    task(handle) {
      task = followTask(handle, status);
      rounds.before(task.element);
    },
    round(event, route = 'elicitation') {
      const keys = Object.keys(event.asked);
      const bytes = stateBytes(event.requestState);
      const label = (key: string) => askLabel(event, key);
      const handshake = event.era === 'handshake';
      // Reported after the call settled: the result's count follows.
      if (resultTitle !== undefined && entry.dataset.state === 'done') {
        resultTitle.textContent = roundsTitle(rounds.childElementCount + 1, call.era);
      }
      rounds.append(
        h(
          'li',
          {
            class: 'round',
            'data-round': String(event.round),
            'data-state-bytes': String(bytes),
          },
          // Rounds, and their limit, are the modern era's: a handshake-era call asks as it
          // goes, each question one more of the call's.
          handshake
            ? h('h4', {}, `Question ${event.round}`)
            : h(
                'h4',
                {},
                `Round ${event.round}`,
                h('span', { class: 'of' }, ` of at most ${event.maxRounds}`),
              ),
          h('p', { class: 'label' }, 'Asked'),
          keyedList(
            keys,
            label,
            // Labelled by its message (a handshake-era ask from a server that sends no key).
            (key) => describeAsk(event.asked[key]!, route, label(key) !== key),
            'asked',
          ),
          h('p', { class: 'label' }, 'Answered'),
          keyedList(keys, label, (key) => answerText(event.answered[key]), 'answered'),
          h(
            'p',
            { class: 'state' },
            event.requestState !== undefined
              ? `State: ${bytes} bytes (sealed by the server, echoed back unchanged)`
              : event.era === 'handshake'
                ? 'State: none (handshake era: the call stays open while it asks)'
                : 'State: none',
          ),
        ),
      );
    },
    finish(outcome) {
      end('done', roundsTitle(rounds.childElementCount, call.era), ...outcomeView(outcome));
    },
    fail(error) {
      end('failed', 'Error', h('p', { class: 'error-text' }, describeError(error)));
    },
  };
}
