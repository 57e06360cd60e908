/**
 * A new question is brought to the person: the whole of its panel scrolled into view (not only
 * its heading, as when it is scrolled to before its form is drawn) and its first field focused,
 * so that they can answer at once, from the keyboard too. A question that arrives while the
 * person is answering another (a modern round asks several at once) is shown, but does not take
 * the focus away.
 */

/** The first control a person answers with: inside a form's shadow root too. */
function firstField(panel: HTMLElement): HTMLElement | null {
  const fields = 'input:not([type="hidden"]), select, textarea';
  const form = panel.querySelector('parley-elicitation');
  const inForm = form?.shadowRoot?.querySelector<HTMLElement>(fields);
  return inForm ?? panel.querySelector<HTMLElement>(fields);
}

/** The panel holding the focus, if the person is in one. */
function answering(region: HTMLElement): boolean {
  const active = document.activeElement;
  return active !== null && active !== document.body && region.contains(active);
}

/** Scroll `panel` wholly into view (its top, when it is taller than the window). */
function scrollWhole(panel: HTMLElement): void {
  const tall = panel.getBoundingClientRect().height > window.innerHeight;
  panel.scrollIntoView({ block: tall ? 'start' : 'nearest' });
}

/**
 * Once `panel`'s content is drawn (a `<parley-elicitation>` renders a moment after it is
 * added), scroll it into view and focus its first field, else its heading.
 */
export async function bringToPerson(region: HTMLElement, panel: HTMLElement): Promise<void> {
  const takeFocus = !answering(region);
  const form = panel.querySelector('parley-elicitation');
  if (form !== null) await form.updateComplete;
  if (!panel.isConnected) return;
  scrollWhole(panel);
  if (!takeFocus) return;
  const target = firstField(panel) ?? panel.querySelector<HTMLElement>('h3');
  if (target?.tagName === 'H3') target.tabIndex = -1;
  target?.focus({ preventScroll: true });
}
