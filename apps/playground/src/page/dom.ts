/** A few lines of DOM building, so the page's modules read as the structure they make. */

type Attributes = Record<string, string | boolean | undefined>;
type Child = Node | string | null | undefined | false;

/**
 * `h('button', { type: 'button' }, 'Run')`: an element with attributes (`true` sets an empty
 * one, `false`/`undefined` none) and children (strings become text).
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

/** The element with `id`, which the page's HTML is known to have. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element as T;
}

/** JSON as people read it. */
export function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? String(value);
}

let counter = 0;
/** A fresh id for pairing a label with its control. */
export function uniqueId(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** What went wrong, in one line: the error's name, code and message. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const name = error.name === 'Error' ? '' : `${error.name}`;
  const label = [name, code !== undefined ? `(${String(code)})` : ''].filter(Boolean).join(' ');
  return label === '' ? error.message : `${label}: ${error.message}`;
}
