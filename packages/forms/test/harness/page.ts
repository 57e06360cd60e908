/**
 * The test page's script (bundled by esbuild from source): it puts the package's entry points
 * on `window.forms`, and runs each request the tests hand it, keeping the promise's result
 * where the test can wait for it.
 */
import { createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';

import { renderElicitation, type ElicitRequestParams, type ElicitResult } from '../../src/index.ts';
import { Elicitation } from '../../src/react.ts';

let controller: AbortController | undefined;
let pending: Promise<ElicitResult> | undefined;
let reactRoot: Root | undefined;
const reactAnswers: ElicitResult[] = [];

function root(): HTMLElement {
  return document.getElementById('root')!;
}

const api = {
  render(params: ElicitRequestParams): void {
    controller = new AbortController();
    pending = renderElicitation(root(), params, { signal: controller.signal });
  },
  abort(): void {
    controller?.abort();
  },
  result(): Promise<ElicitResult> | undefined {
    return pending;
  },
  /** Whatever `renderElicitation` does with these options, as text: the error it throws. */
  renderError(params: ElicitRequestParams, options: unknown): string | undefined {
    try {
      void renderElicitation(root(), params, options as never);
      return undefined;
    } catch (error) {
      return `${(error as Error).name}: ${(error as Error).message}`;
    }
  },
  renderReact(params: ElicitRequestParams): void {
    reactRoot ??= createRoot(root());
    reactRoot.render(
      createElement(Elicitation, {
        params,
        className: 'from-react',
        onAnswer: (result) => reactAnswers.push(result),
      }),
    );
  },
  reactAnswers(): ElicitResult[] {
    return reactAnswers;
  },
  /** What a host does when it moves on: empties the container itself. */
  clearRoot(): void {
    root().replaceChildren();
  },
  /** Whether the container is empty (renderElicitation clears it when done). */
  rootIsEmpty(): boolean {
    return root().childNodes.length === 0;
  },
};

declare global {
  interface Window {
    forms: typeof api;
  }
}

window.forms = api;
document.body.dataset.ready = 'true';
