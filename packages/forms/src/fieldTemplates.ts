import type { FieldDescriptor } from '@parley/schema';
import { html, nothing, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';

import { fieldDescription, fieldHint } from './fieldHint.ts';
import { NO, YES, type RawValue } from './fieldValues.ts';
import { problemSentence } from './formModel.ts';

/** A single choice with more options than this is a `<select>`; with fewer, radio buttons. */
export const RADIO_LIMIT = 5;

/** The id of the question's text, which labels a field that has no label of its own. */
export const MESSAGE_ID = 'parley-message';

/** What a field's template needs: the field, its control's state and error, and a way back. */
export interface FieldView {
  field: FieldDescriptor;
  /** Unique within the element's shadow root (field names may hold any character). */
  id: string;
  /** Its title, else its name; `undefined` for the scalar wrapper, labelled by the question. */
  label: string | undefined;
  raw: RawValue;
  error: string | undefined;
  onRaw: (raw: RawValue, badInput?: boolean) => void;
}

/** A choice as a radio button or an `<option>` shows it. */
interface Choice {
  value: string;
  title: string;
}

/**
 * A yes/no question's answers: two radio buttons, so that nothing is chosen until the person
 * chooses (a checkbox is always ticked or not, and unticked would answer "no" for them).
 */
const YES_NO: readonly Choice[] = [
  { value: YES, title: 'Yes' },
  { value: NO, title: 'No' },
];

/** The choices a field's radio buttons offer, before the optional "No answer". */
function choicesOf(field: FieldDescriptor): readonly Choice[] {
  return field.kind === 'boolean' ? YES_NO : (field.options ?? []);
}

/** Radio buttons, rather than a `<select>` or checkboxes: a yes/no or a short single choice. */
function isRadioGroup(field: FieldDescriptor): boolean {
  return (
    field.kind === 'boolean' ||
    (field.kind === 'single-select' && (field.options ?? []).length <= RADIO_LIMIT)
  );
}

/** The id of the control that takes focus for the field (a group's first or chosen option). */
export function focusTargetId(view: Pick<FieldView, 'field' | 'id' | 'raw'>): string {
  const { field, id, raw } = view;
  if (isRadioGroup(field)) {
    const chosen = choicesOf(field).findIndex((option) => option.value === raw);
    return `${id}-option-${Math.max(chosen, 0)}`;
  }
  return field.kind === 'multi-select' ? `${id}-option-0` : id;
}

export function fieldTemplate(view: FieldView): TemplateResult {
  switch (view.field.kind) {
    case 'multi-select':
      return checkboxGroup(view);
    case 'boolean':
    case 'single-select':
      return isRadioGroup(view.field) ? radioGroup(view) : selectField(view);
    case 'number':
    case 'integer':
    case 'string':
      return inputField(view);
  }
}

/** The ids `aria-describedby` lists: the description, the limits, then the error. */
function describedBy(view: FieldView): string | undefined {
  const ids = [
    fieldDescription(view.field) === undefined ? undefined : `${view.id}-description`,
    fieldHint(view.field) === undefined ? undefined : `${view.id}-hint`,
    view.error === undefined ? undefined : `${view.id}-error`,
  ].filter((id) => id !== undefined);
  return ids.length === 0 ? undefined : ids.join(' ');
}

function invalid(view: FieldView): 'true' | undefined {
  return view.error === undefined ? undefined : 'true';
}

/** The visible "required" mark; the control itself carries `required` for assistive tech. */
function requiredMark(field: FieldDescriptor, spoken: boolean): TemplateResult | typeof nothing {
  if (!field.required) return nothing;
  return html`<span class="required" part="required" aria-hidden="true">*</span>${
      spoken ? html`<span class="visually-hidden"> (required)</span>` : nothing
    }`;
}

/**
 * The label, with the required mark beside it rather than in it, so the label's text is the
 * title exactly (what a person, a screen reader and `getByLabel` all see).
 */
function controlLabel(view: FieldView): TemplateResult {
  return html`<div class="label-row">
    <label for=${view.id} part="label">${view.label}</label>${requiredMark(view.field, false)}
  </div>`;
}

function notes(view: FieldView): TemplateResult {
  const hint = fieldHint(view.field);
  const description = fieldDescription(view.field);
  return html`${
    description === undefined
      ? nothing
      : html`<p id="${view.id}-description" class="description" part="description">
          ${description}
        </p>`
  }${
    hint === undefined
      ? nothing
      : html`<p id="${view.id}-hint" class="hint" part="hint">${hint}</p>`
  }`;
}

function errorText(view: FieldView): TemplateResult | typeof nothing {
  return view.error === undefined
    ? nothing
    : html`<p id="${view.id}-error" class="field-error" part="field-error">
        ${problemSentence(view.label, view.error)}
      </p>`;
}

function inputType(field: FieldDescriptor): string {
  if (field.kind === 'number' || field.kind === 'integer') return 'number';
  switch (field.format) {
    case 'email':
      return 'email';
    case 'uri':
      return 'url';
    case 'date':
      return 'date';
    case 'date-time':
      return 'datetime-local';
    case undefined:
      return 'text';
  }
}

function inputField(view: FieldView): TemplateResult {
  const { field, id } = view;
  const numeric = field.kind === 'number' || field.kind === 'integer';
  const onInput = (event: Event): void => {
    const input = event.target as HTMLInputElement;
    view.onRaw(input.value, numeric && input.validity.badInput);
  };
  return html`<div class="field" part="field">
    ${view.label === undefined ? nothing : controlLabel(view)} ${notes(view)}
    <input
      id=${id}
      part="control"
      type=${inputType(field)}
      .value=${typeof view.raw === 'string' ? view.raw : ''}
      ?required=${field.required}
      min=${ifDefined(numeric ? field.minimum : undefined)}
      max=${ifDefined(numeric ? field.maximum : undefined)}
      step=${ifDefined(numeric ? (field.kind === 'integer' ? '1' : 'any') : stepOf(field))}
      inputmode=${ifDefined(numeric ? (field.kind === 'integer' ? 'numeric' : 'decimal') : undefined)}
      autocomplete=${ifDefined(field.format === 'email' ? 'email' : undefined)}
      aria-labelledby=${ifDefined(view.label === undefined ? MESSAGE_ID : undefined)}
      aria-describedby=${ifDefined(describedBy(view))}
      aria-invalid=${ifDefined(invalid(view))}
      @input=${onInput}
      @change=${onInput}
    />
    ${errorText(view)}
  </div>`;
}

/** Seconds on a date-time input, so a default such as 09:30:15 is shown and sent whole. */
function stepOf(field: FieldDescriptor): string | undefined {
  return field.format === 'date-time' ? '1' : undefined;
}

function selectField(view: FieldView): TemplateResult {
  const { field, id } = view;
  const options = field.options ?? [];
  const chosen = typeof view.raw === 'string' ? view.raw : '';
  return html`<div class="field" part="field">
    ${view.label === undefined ? nothing : controlLabel(view)} ${notes(view)}
    <select
      id=${id}
      part="control"
      ?required=${field.required}
      aria-labelledby=${ifDefined(view.label === undefined ? MESSAGE_ID : undefined)}
      aria-describedby=${ifDefined(describedBy(view))}
      aria-invalid=${ifDefined(invalid(view))}
      @change=${(event: Event) => view.onRaw((event.target as HTMLSelectElement).value)}
    >
      <option value="" ?selected=${chosen === ''}>
        ${field.required ? 'Choose…' : 'No answer'}
      </option>
      ${options.map(
        (option) =>
          html`<option value=${option.value} ?selected=${chosen === option.value}>
            ${option.title}
          </option>`,
      )}
    </select>
    ${errorText(view)}
  </div>`;
}

function groupLegend(view: FieldView): TemplateResult | typeof nothing {
  if (view.label === undefined) return nothing;
  return html`<legend part="label">${view.label}${requiredMark(view.field, true)}</legend>`;
}

/** The last radio of an optional group: a chosen radio cannot be unchosen otherwise. */
const NO_ANSWER: Choice = { value: '', title: 'No answer' };

function radioGroup(view: FieldView): TemplateResult {
  const { field, id } = view;
  const chosen = typeof view.raw === 'string' ? view.raw : '';
  const options = [...choicesOf(field), ...(field.required ? [] : [NO_ANSWER])];
  return html`<fieldset
    class="field group"
    part="field group"
    role="radiogroup"
    aria-required=${ifDefined(field.required ? 'true' : undefined)}
    aria-labelledby=${ifDefined(view.label === undefined ? MESSAGE_ID : undefined)}
    aria-describedby=${ifDefined(describedBy(view))}
    aria-invalid=${ifDefined(invalid(view))}
  >
    ${groupLegend(view)} ${notes(view)}
    ${options.map(
      (option, index) =>
        html`<div class="option" part="option">
          <input
            type="radio"
            id="${id}-option-${index}"
            name=${id}
            .value=${option.value}
            .checked=${chosen === option.value}
            ?required=${field.required}
            @change=${() => view.onRaw(option.value)}
          />
          <label for="${id}-option-${index}">${option.title}</label>
        </div>`,
    )}
    ${errorText(view)}
  </fieldset>`;
}

function checkboxGroup(view: FieldView): TemplateResult {
  const { field, id } = view;
  const chosen = Array.isArray(view.raw) ? view.raw : [];
  // Read every box on each change: the template's `chosen` is from the last render, and a
  // change that clears no error does not render again.
  const onChange = (event: Event): void => {
    const group = (event.target as HTMLElement).closest('fieldset');
    const boxes = [...(group?.querySelectorAll<HTMLInputElement>('input[type="checkbox"]') ?? [])];
    view.onRaw(boxes.filter((box) => box.checked).map((box) => box.value));
  };
  return html`<fieldset
    class="field group"
    part="field group"
    aria-labelledby=${ifDefined(view.label === undefined ? MESSAGE_ID : undefined)}
    aria-describedby=${ifDefined(describedBy(view))}
    aria-invalid=${ifDefined(invalid(view))}
  >
    ${groupLegend(view)} ${notes(view)}
    ${(field.options ?? []).map(
      (option, index) =>
        html`<div class="option" part="option">
          <input
            type="checkbox"
            id="${id}-option-${index}"
            .value=${option.value}
            .checked=${chosen.includes(option.value)}
            @change=${onChange}
          />
          <label for="${id}-option-${index}">${option.title}</label>
        </div>`,
    )}
    ${errorText(view)}
  </fieldset>`;
}
