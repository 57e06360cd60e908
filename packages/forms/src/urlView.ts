import type { ElicitUrlParams } from '@parley/core';
import { html, type TemplateResult } from 'lit';

import { MESSAGE_ID } from './fieldTemplates.ts';
import { checkUrl } from './urlSafety.ts';

/** What the URL consent view does when a button is pressed. */
export interface UrlViewActions {
  open: (href: string) => void;
  decline: () => void;
  cancel: () => void;
}

/**
 * The consent view of a URL-mode request: the server's message, the domain the person would be
 * sent to (large, since that is what they are trusting) and the full address, as text. Never a
 * link: an `<a href>` can be followed by a stray Enter, a middle click or a prefetch, and the
 * spec asks for explicit consent. Only the Open button opens it, on a click.
 */
export function urlView(params: ElicitUrlParams, actions: UrlViewActions): TemplateResult {
  const check = checkUrl(typeof params.url === 'string' ? params.url : '');
  const message = typeof params.message === 'string' ? params.message : '';
  return html`<section part="url-view" aria-labelledby=${MESSAGE_ID}>
    <p id=${MESSAGE_ID} class="message" part="message">${message}</p>
    ${
      check.ok
        ? html`<div class="destination">
            <p class="hint" part="hint">This opens a page on</p>
            <p class="domain" part="domain">${check.hostname}</p>
            <p class="url" part="url">
              <span class="visually-hidden">Full address: </span><code>${check.href}</code>
            </p>
          </div>`
        : html`<div class="summary" part="error-summary" role="alert">
            This link cannot be opened. ${check.reason}
          </div>`
    }
    <div class="actions" part="actions">
      ${
        check.ok
          ? html`<button
              type="button"
              class="primary"
              part="button open-button"
              @click=${() => actions.open(check.href)}
            >
              Open ${check.hostname}
            </button>`
          : null
      }
      <button type="button" part="button decline-button" @click=${actions.decline}>Decline</button>
      <button type="button" part="button cancel-button" @click=${actions.cancel}>Cancel</button>
    </div>
  </section>`;
}
