import {
  DeclinedElicitation,
  type ElicitationHandler,
  type FieldDescriptor,
} from '@parley/client';

// #region forms
export const answer: ElicitationHandler = async (
  message,
  responseType,
  params,
  ctx,
) => {
  // URL mode: show params.url, and accept once the user agreed to open it.
  if (params.mode === 'url') return { action: 'decline' };

  // A form of one `value` field (String, Boolean, a list of options…): a bare value.
  if (message === "What's your name?") return 'Ada';

  // Field values as a plain object: checked, and the schema's defaults filled in.
  if (message === 'Please provide your information')
    return { name: 'Ada', age: 36 };

  // Or say no: { action: 'decline' } and { action: 'cancel' } work as well.
  if (message.startsWith('Delete')) return new DeclinedElicitation();

  // responseType(...) checks the values now, in your handler, with a message that names the field.
  console.log(
    `${ctx.era} era, ${ctx.call?.name}, round ${ctx.round}: ${message}`,
  );
  return responseType({ title: 'Write the docs' });
};
// #endregion forms

// #region render
/** One line per field, as a terminal or form UI would lay it out. */
export function describe(field: FieldDescriptor): string {
  const label = field.title ?? field.name;
  const options = field.options?.map((option) => option.value).join(' | ');
  const fallback =
    field.default === undefined
      ? ''
      : ` = ${JSON.stringify(field.default)}`;
  return `${label}: ${options ?? field.kind}${field.required ? ' (required)' : ''}${fallback}`;
}

export const render: ElicitationHandler = (message, responseType) => {
  console.log(message);
  for (const field of responseType.fields)
    console.log(`  ${describe(field)}`);
  return responseType({ title: 'Write the docs' }); // the other fields take their defaults
};
// #endregion render
