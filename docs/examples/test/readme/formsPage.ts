/**
 * The page script of the forms README test (forms.test.ts bundles it for Chromium): the
 * README's element and React examples, each on its own mount, with what they answer recorded.
 */
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';

import type { ElicitRequestParams, ElicitResult } from '@parley/forms';

import { showRequest } from '../../readme/forms/element.ts';
import { Question } from '../../readme/forms/Question.tsx';

const answers: ElicitResult[] = [];

declare global {
  interface Window {
    readmeForms: {
      show(params: ElicitRequestParams): void;
      showReact(params: ElicitRequestParams): void;
      answers(): ElicitResult[];
    };
  }
}

window.readmeForms = {
  show: (params) => showRequest(params, (result) => answers.push(result)),
  showReact: (params) => {
    const mount = document.createElement('div');
    document.body.append(mount);
    createRoot(mount).render(
      createElement(Question, {
        params,
        respond: (result) => answers.push(result),
      }),
    );
  },
  answers: () => [...answers],
};
document.body.dataset.ready = 'true';
