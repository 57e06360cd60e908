/**
 * `@parley/forms/react`: the `<parley-elicitation>` element as a React component. React 19 sets
 * a custom element's properties and listens to its events itself, so this is only a typed name
 * for it. Importing it defines the element.
 */
import type { ElicitResult } from '@parley/core';
import { createElement, type CSSProperties, type ReactElement } from 'react';

// The main entry by the package's own name (external in the build): the element is defined in
// one file, dist/index, whichever entry a page loads first.
import { ELEMENT_NAME, type ElicitRequestParams } from '@parley/forms';

/** The props of `<Elicitation>`. */
export interface ElicitationProps {
  /** The `params` of the `elicitation/create` request to show. */
  params: ElicitRequestParams;
  /** Called once with what the MCP client sends back (`accept`, `decline` or `cancel`). */
  onAnswer?: (result: ElicitResult) => void;
  id?: string;
  className?: string;
  style?: CSSProperties;
}

/**
 * One elicitation request, rendered by `<parley-elicitation>`; `onAnswer` gets the result:
 * `<Elicitation params={request.params} onAnswer={(result) => respond(result)} />`.
 */
export function Elicitation(props: ElicitationProps): ReactElement {
  const { params, onAnswer, id, className, style } = props;
  // Only the props that are set: React would write an `undefined` `id` as the text "undefined".
  const elementProps: Record<string, unknown> = { params };
  if (id !== undefined) elementProps.id = id;
  if (className !== undefined) elementProps.className = className;
  if (style !== undefined) elementProps.style = style;
  if (onAnswer !== undefined) {
    // `on` + the event's exact name: React 19 adds it as a listener for `parley-answer`.
    elementProps['onparley-answer'] = (event: CustomEvent<ElicitResult>) => onAnswer(event.detail);
  }
  return createElement(ELEMENT_NAME, elementProps);
}
