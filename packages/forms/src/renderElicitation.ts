import { checkOptionKeys, optionKeys, type ElicitResult } from '@parley/core';

import './defineElement.ts';
import type { ParleyElicitationElement } from './element.ts';
import { ANSWER_EVENT, ELEMENT_NAME, type ElicitRequestParams } from './types.ts';

/** How `renderElicitation` runs. */
export interface RenderOptions {
  /**
   * Aborting it takes the form down and resolves `{ action: 'cancel' }`, as when the server
   * withdrew the request or the tool call was cancelled. Already aborted: nothing is rendered.
   */
  signal?: AbortSignal;
}

const RENDER_OPTIONS = optionKeys<RenderOptions>()(['signal']);

const CANCEL: ElicitResult = { action: 'cancel' };

/**
 * Renders the request into `container` (replacing what it held) as a `<parley-elicitation>`
 * element, and resolves with the person's answer, exactly as an MCP client sends it back:
 * `{ action: 'accept', content }` for a form, `{ action: 'accept' }` once a URL was opened,
 * `{ action: 'decline' }` or `{ action: 'cancel' }`. The container is emptied when it resolves;
 * a host that takes the form out of it first gets `{ action: 'cancel' }`.
 */
export function renderElicitation(
  container: HTMLElement,
  params: ElicitRequestParams,
  options: RenderOptions = {},
): Promise<ElicitResult> {
  checkOptionKeys('renderElicitation', 'options', options, RENDER_OPTIONS);
  const { signal } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError('renderElicitation: options.signal must be an AbortSignal.');
  }
  if (typeof params !== 'object' || params === null) {
    throw new TypeError(
      'renderElicitation: params must be the params of an elicitation/create request.',
    );
  }
  if (signal?.aborted === true) return Promise.resolve({ ...CANCEL });
  const element = document.createElement(ELEMENT_NAME) as ParleyElicitationElement;
  element.params = params;
  return new Promise<ElicitResult>((resolve) => {
    // A host that empties the container (a newer question, a closed panel) has cancelled this
    // one: without this the promise would never settle.
    const observer = new MutationObserver(() => {
      if (element.parentNode !== container) finish({ ...CANCEL });
    });
    const finish = (result: ElicitResult): void => {
      observer.disconnect();
      element.removeEventListener(ANSWER_EVENT, onAnswer);
      signal?.removeEventListener('abort', onAbort);
      element.remove();
      container.replaceChildren();
      resolve(result);
    };
    const onAnswer = (event: Event): void => finish((event as CustomEvent<ElicitResult>).detail);
    const onAbort = (): void => finish({ ...CANCEL });
    element.addEventListener(ANSWER_EVENT, onAnswer);
    signal?.addEventListener('abort', onAbort, { once: true });
    container.replaceChildren(element);
    observer.observe(container, { childList: true });
  });
}
