import { css, type CSSResult } from 'lit';

/**
 * Neutral defaults a host restyles with custom properties (colours, radius, font) or, for more,
 * `::part()`: form, url-view, message, error-summary, field, group, label, required, description,
 * hint, control, option, field-error, actions, button, accept-button, decline-button,
 * cancel-button, open-button, domain, url. Colours meet WCAG AA contrast on the default surface.
 */
export const elicitationStyles: CSSResult = css`
  :host {
    display: block;
    font: var(--parley-font, inherit);
    color: var(--parley-text, #1f2328);
    background: var(--parley-surface, #ffffff);
    --_border: var(--parley-border, #8c959f);
    --_muted: var(--parley-muted, #57606a);
    --_accent: var(--parley-accent, #0b57d0);
    --_accent-text: var(--parley-accent-text, #ffffff);
    --_error: var(--parley-error, #b3261e);
    --_focus: var(--parley-focus, #0b57d0);
    --_radius: var(--parley-radius, 6px);
  }
  :host([hidden]) {
    display: none;
  }
  form,
  section {
    display: grid;
    gap: 1rem;
  }
  .message {
    margin: 0;
    font-weight: 600;
    white-space: pre-wrap;
  }
  .field {
    display: grid;
    gap: 0.25rem;
    margin: 0;
    padding: 0;
    border: 0;
    min-inline-size: 0;
  }
  .field label[part='label'],
  legend {
    font-weight: 600;
    padding: 0;
  }
  .required {
    color: var(--_error);
    margin-inline-start: 0.25em;
  }
  .description,
  .hint {
    margin: 0;
    color: var(--_muted);
    font-size: 0.925em;
  }
  input:not([type='checkbox']):not([type='radio']),
  select {
    font: inherit;
    color: inherit;
    background: var(--parley-control-surface, #ffffff);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.4rem 0.5rem;
    max-inline-size: 100%;
  }
  [aria-invalid='true'] input,
  input[aria-invalid='true'],
  select[aria-invalid='true'] {
    border-color: var(--_error);
  }
  .option {
    display: flex;
    gap: 0.5rem;
    align-items: center;
  }
  .field-error,
  .summary {
    margin: 0;
    color: var(--_error);
  }
  .field-error {
    font-weight: 600;
  }
  .summary:empty {
    display: none;
  }
  .summary {
    border: 1px solid var(--_error);
    border-radius: var(--_radius);
    padding: 0.5rem 0.75rem;
  }
  .summary p {
    margin: 0;
  }
  .summary ul {
    margin: 0.25rem 0 0;
    padding-inline-start: 1.25rem;
  }
  .domain {
    margin: 0;
    font-size: 1.35em;
    font-weight: 700;
    overflow-wrap: anywhere;
  }
  .url {
    margin: 0;
    color: var(--_muted);
    overflow-wrap: anywhere;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
  button {
    font: inherit;
    border-radius: var(--_radius);
    padding: 0.45rem 0.9rem;
    border: 1px solid var(--_border);
    background: var(--parley-control-surface, #ffffff);
    color: inherit;
    cursor: pointer;
  }
  button.primary {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_accent-text);
  }
  :focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  .visually-hidden {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;
