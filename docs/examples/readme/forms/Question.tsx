import type { ElicitRequestParams, ElicitResult } from '@parley/forms';
import { Elicitation } from '@parley/forms/react';

export function Question(props: {
  params: ElicitRequestParams;
  respond: (result: ElicitResult) => void;
}) {
  return (
    <Elicitation
      params={props.params}
      onAnswer={(result) => props.respond(result)}
    />
  );
}
