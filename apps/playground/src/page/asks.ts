import type {
  CreateMessageParams,
  ElicitFormParams,
  ElicitResult,
  ElicitUrlParams,
  InputContext,
  Root,
  SamplingMessage,
} from '@parley/client';
import { renderElicitation } from '@parley/forms';

import { bringToPerson } from './askView.ts';
import { h, uniqueId } from './dom.ts';

/**
 * Where the server's questions are put to the person: each ask gets a panel of its own in the
 * asks region (a modern round may ask several at once), which goes away once answered.
 * Elicitations are rendered by `@parley/forms`; sampling and roots get small editors here.
 */

/** What the person was asked for, for the panel's heading. */
function heading(kind: string, ctx: InputContext): string {
  const call = ctx.call === undefined ? '' : ` · ${ctx.call.name}`;
  // Rounds are the modern era's: a handshake-era call asks as it goes.
  const round = ctx.era === 'modern' && ctx.round > 0 ? ` · round ${ctx.round}` : '';
  return `${kind}${call}${round}`;
}

/**
 * A panel in `region` for one ask, removed when the ask is over; `show()` once its content is
 * in brings it to the person (askView.ts).
 */
function panel(
  region: HTMLElement,
  title: string,
): { body: HTMLElement; show(): void; done(): void } {
  const titleId = uniqueId('ask-title');
  const body = h('div', { class: 'ask-body' });
  const section = h(
    'section',
    { class: 'ask', 'aria-labelledby': titleId },
    h('h3', { id: titleId }, title),
    body,
  );
  region.append(section);
  region.closest<HTMLElement>('[data-asks]')?.removeAttribute('hidden');
  return {
    body,
    show: () => void bringToPerson(region, section),
    done() {
      section.remove();
      if (region.childElementCount === 0) {
        region.closest<HTMLElement>('[data-asks]')?.setAttribute('hidden', '');
      }
    },
  };
}

/** An elicitation, form or URL mode, rendered by `@parley/forms`; its answer, exactly. */
export async function askElicitation(
  region: HTMLElement,
  params: ElicitFormParams | ElicitUrlParams,
  ctx: InputContext,
): Promise<ElicitResult> {
  const mode = params.mode === 'url' ? 'Open a page' : 'Question';
  const { body, show, done } = panel(region, heading(mode, ctx));
  try {
    const answer = renderElicitation(body, params, { signal: ctx.signal });
    show();
    return await answer;
  } finally {
    done();
  }
}

function messageText(message: SamplingMessage): string {
  const blocks = Array.isArray(message.content) ? message.content : [message.content];
  return blocks
    .map((block) =>
      block.type === 'text'
        ? block.text
        : `[${block.type}${'mimeType' in block ? ` ${String(block.mimeType)}` : ''}]`,
    )
    .join('\n');
}

/** Thrown when the person declines to answer a sampling request. */
export class DeclinedSampling extends Error {
  constructor() {
    super('the user declined to sample');
    this.name = 'DeclinedSampling';
  }
}

/**
 * A sampling request: the messages (and system prompt), a reply to type, Send or Decline.
 * Declining fails the request (sampling has no decline result), so the server hears an error.
 */
export function askSampling(
  region: HTMLElement,
  messages: SamplingMessage[],
  params: CreateMessageParams,
  ctx: InputContext,
): Promise<string> {
  const { body, show, done } = panel(region, heading('Sampling', ctx));
  const replyId = uniqueId('reply');
  const reply = h('textarea', { id: replyId, rows: '4', required: true });
  const form = h(
    'form',
    { class: 'sampling' },
    h('p', {}, 'The server asks your model to reply to these messages. You are the model.'),
    params.systemPrompt !== undefined
      ? h(
          'p',
          { class: 'system' },
          h('strong', {}, 'System: '),
          h('span', { class: 'message-text' }, params.systemPrompt),
        )
      : null,
    h(
      'ol',
      { class: 'messages' },
      ...messages.map((message) =>
        h(
          'li',
          {},
          h('strong', {}, `${message.role}: `),
          // Its line breaks kept (`white-space: pre-wrap`): a prompt's lines are part of it.
          h('span', { class: 'message-text' }, messageText(message)),
        ),
      ),
    ),
    h('label', { for: replyId }, 'Reply'),
    reply,
    h(
      'div',
      { class: 'buttons' },
      h('button', { type: 'submit' }, 'Send'),
      h('button', { type: 'button', 'data-decline': true }, 'Decline'),
    ),
  );
  body.append(form);
  show();
  return new Promise<string>((resolve, reject) => {
    const finish = (settle: () => void) => {
      ctx.signal.removeEventListener('abort', onAbort);
      done();
      settle();
    };
    const onAbort = () => finish(() => reject(ctx.signal.reason as Error));
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      finish(() => resolve(reply.value));
    });
    form
      .querySelector('[data-decline]')
      ?.addEventListener('click', () => finish(() => reject(new DeclinedSampling())));
  });
}

/**
 * A roots request: the list the page keeps (starting empty), to edit — add or remove
 * `file://` URIs — and send. What was sent is offered again next time.
 */
export function createRootsEditor(region: HTMLElement): (ctx: InputContext) => Promise<Root[]> {
  let roots: Root[] = [];
  return (ctx) => {
    const { body, show, done } = panel(region, heading('Roots', ctx));
    const draft = roots.map((root) => ({ ...root }));
    const list = h('ul', { class: 'roots' });
    const render = () => {
      list.replaceChildren(
        ...draft.map((root, index) =>
          h(
            'li',
            {},
            h('code', {}, root.uri),
            root.name !== undefined ? ` (${root.name})` : '',
            ' ',
            (() => {
              const remove = h(
                'button',
                { type: 'button', 'aria-label': `Remove ${root.uri}` },
                'Remove',
              );
              remove.addEventListener('click', () => {
                draft.splice(index, 1);
                render();
              });
              return remove;
            })(),
          ),
        ),
      );
      if (draft.length === 0) list.append(h('li', { class: 'empty' }, 'No roots yet.'));
    };
    const uriId = uniqueId('root-uri');
    const uri = h('input', {
      id: uriId,
      type: 'text',
      placeholder: 'file:///home/me/project',
    });
    const problem = h('p', { class: 'problem', role: 'alert' });
    const add = h('button', { type: 'button' }, 'Add');
    add.addEventListener('click', () => {
      const value = uri.value.trim();
      if (!value.startsWith('file://') || !URL.canParse(value)) {
        problem.textContent = 'A root is a file:// URI, e.g. file:///home/me/project.';
        return;
      }
      problem.textContent = '';
      draft.push({ uri: value, name: value.replace(/\/+$/, '').split('/').pop() || value });
      uri.value = '';
      render();
      uri.focus();
    });
    // Enter in the field adds the root rather than sending the list.
    uri.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      add.click();
    });
    const form = h(
      'form',
      { class: 'roots-editor' },
      h('p', {}, 'The server asks which directories it may work in.'),
      list,
      h('label', { for: uriId }, 'Root URI'),
      h('div', { class: 'row' }, uri, add),
      problem,
      h('div', { class: 'buttons' }, h('button', { type: 'submit' }, 'Send roots')),
    );
    render();
    body.append(form);
    show();
    return new Promise<Root[]>((resolve, reject) => {
      const onAbort = () => {
        done();
        reject(ctx.signal.reason as Error);
      };
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        ctx.signal.removeEventListener('abort', onAbort);
        roots = draft;
        done();
        resolve(draft.map((root) => ({ ...root })));
      });
    });
  };
}
