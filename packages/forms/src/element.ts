import type { ElicitResult, ElicitUrlParams } from '@parley/core';
import {
  LitElement,
  html,
  nothing,
  type PropertyDeclarations,
  type PropertyValues,
  type TemplateResult,
} from 'lit';

import { MESSAGE_ID, fieldTemplate, focusTargetId } from './fieldTemplates.ts';
import { contentOf, type RawValue } from './fieldValues.ts';
import { formModel, labelOf, problemSentence, validate, type FormModel } from './formModel.ts';
import { elicitationStyles } from './styles.ts';
import { ANSWER_EVENT, type ElicitRequestParams } from './types.ts';
import { urlView } from './urlView.ts';

// The element's tag and event, typed for `createElement`, `querySelector` and `addEventListener`.
declare global {
  interface HTMLElementTagNameMap {
    'parley-elicitation': ParleyElicitationElement;
  }
  interface HTMLElementEventMap {
    'parley-answer': CustomEvent<ElicitResult>;
  }
}

/**
 * `<parley-elicitation>`: one elicitation request, rendered. Set `params` (a property, not an
 * attribute) to the request's params; when the person answers, the element dispatches a
 * `parley-answer` event (bubbling, composed) whose `detail` is the `ElicitResult` to send back.
 * It answers once per `params`: set new params to ask again.
 *
 * Form mode checks every field on Accept with the server's own rules and wording
 * (`fieldValueProblem`, `is required`), shows each error on its field, and refuses to accept
 * until they are fixed; Decline and Cancel always work, and Escape cancels. URL mode shows the
 * destination's domain and opens it only when the Open button is clicked.
 */
export class ParleyElicitationElement extends LitElement {
  /** The shadow root's styles: restyle them with the custom properties and `::part()` names. */
  static override styles: typeof LitElement.styles = elicitationStyles;

  static override properties: PropertyDeclarations = {
    params: { attribute: false },
  };

  /** The `params` of the `elicitation/create` request to show. */
  declare params: ElicitRequestParams | undefined;

  #form: FormModel | undefined;
  #answered = false;

  constructor() {
    super();
    this.params = undefined;
    this.addEventListener('keydown', (event) => {
      // Not while an input method is composing: there Escape only abandons the composition.
      if (event.key === 'Escape' && !event.isComposing && this.params !== undefined) {
        event.preventDefault();
        this.#answer({ action: 'cancel' });
      }
    });
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('params')) return;
    this.#answered = false;
    const params = this.params;
    this.#form = params === undefined || isUrlMode(params) ? undefined : formModel(params);
  }

  protected override render(): TemplateResult | typeof nothing {
    const params = this.params;
    if (params === undefined) return nothing;
    if (isUrlMode(params)) {
      return urlView(params, {
        open: (href) => {
          if (this.#answered) return;
          window.open(href, '_blank', 'noopener,noreferrer');
          this.#answer({ action: 'accept' });
        },
        decline: () => this.#answer({ action: 'decline' }),
        cancel: () => this.#answer({ action: 'cancel' }),
      });
    }
    const form = this.#form;
    return form === undefined ? nothing : this.#formView(form);
  }

  #formView(form: FormModel): TemplateResult {
    const answerable = form.unanswerable === undefined;
    return html`<form
      part="form"
      novalidate
      aria-labelledby=${MESSAGE_ID}
      @submit=${(event: SubmitEvent) => {
        event.preventDefault();
        this.#accept();
      }}
    >
      <p id=${MESSAGE_ID} class="message" part="message">${form.question}</p>
      <div class="summary" part="error-summary" role="alert">${this.#summary(form)}</div>
      ${form.fields.map((field, index) =>
        fieldTemplate({
          field,
          id: `field-${index}`,
          label: labelOf(field, form.fields),
          raw: form.raw.get(field.name) ?? '',
          error: form.errors.get(field.name),
          onRaw: (raw, badInput) => this.#change(form, field.name, raw, badInput === true),
        }),
      )}
      <div class="actions" part="actions">
        ${
          answerable
            ? html`<button type="submit" class="primary" part="button accept-button">
                Accept
              </button>`
            : nothing
        }
        <button
          type="button"
          part="button decline-button"
          @click=${() => this.#answer({ action: 'decline' })}
        >
          Decline
        </button>
        <button
          type="button"
          part="button cancel-button"
          @click=${() => this.#answer({ action: 'cancel' })}
        >
          Cancel
        </button>
      </div>
    </form>`;
  }

  /** Everything wrong, in one place a screen reader announces (`role="alert"`). */
  #summary(form: FormModel): TemplateResult | typeof nothing {
    if (form.unanswerable !== undefined) {
      return html`This request cannot be answered here: ${form.unanswerable}`;
    }
    const problems = form.fields.flatMap((field) => {
      const error = form.errors.get(field.name);
      if (error === undefined) return [];
      return [problemSentence(labelOf(field, form.fields), error)];
    });
    if (problems.length === 0 && form.notice === undefined) return nothing;
    return html`${form.notice === undefined ? nothing : html`<p>${form.notice}</p>`}
    ${
      problems.length === 0
        ? nothing
        : html`<p>
              ${
                problems.length === 1
                  ? 'One answer needs fixing:'
                  : `${problems.length} answers need fixing:`
              }
            </p>
            <ul>
              ${problems.map((problem) => html`<li>${problem}</li>`)}
            </ul>`
    }`;
  }

  #change(form: FormModel, name: string, raw: RawValue, badInput: boolean): void {
    form.raw.set(name, raw);
    if (badInput) form.badInput.add(name);
    else form.badInput.delete(name);
    // The error was about the old value: drop it as soon as the value changes.
    if (form.errors.delete(name)) this.requestUpdate();
  }

  #accept(): void {
    const form = this.#form;
    if (form === undefined || form.unanswerable !== undefined || this.#answered) return;
    validate(form);
    if (form.errors.size === 0) {
      this.#answer({ action: 'accept', content: contentOf(form.fields, form.raw) });
      return;
    }
    this.requestUpdate();
    const index = form.fields.findIndex((field) => form.errors.has(field.name));
    const field = form.fields[index]!;
    void this.updateComplete.then(() => {
      const id = focusTargetId({
        field,
        id: `field-${index}`,
        raw: form.raw.get(field.name) ?? '',
      });
      this.renderRoot.querySelector<HTMLElement>(`#${id}`)?.focus();
    });
  }

  #answer(result: ElicitResult): void {
    if (this.#answered || this.params === undefined) return;
    this.#answered = true;
    this.dispatchEvent(
      new CustomEvent(ANSWER_EVENT, { detail: result, bubbles: true, composed: true }),
    );
  }
}

function isUrlMode(params: ElicitRequestParams): params is ElicitUrlParams {
  return params.mode === 'url';
}
