import type { ElicitationSchema } from '@parley/core';

import { isPlainObject } from './values.ts';

/** A shape that is valid on the wire but that real clients are known to mishandle. */
export interface SchemaWarning {
  code: 'top-level-title' | 'nothing-to-render' | 'secret-field' | 'generic-label';
  /** The field the warning is about, when it is about one. */
  field?: string;
  message: string;
}

// Words that mark a secret. The spec: passwords, API keys, tokens and payment data MUST use URL
// mode, never a form. Matched against the words of a field's name and title.
const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'passphrase',
  'passcode',
  'secret',
  'token',
  'apikey',
  'credential',
  'credentials',
  'cvv',
  'cvc',
  'iban',
  'pin',
]);
const SECRET_PAIRS = new Set([
  'api key',
  'access key',
  'private key',
  'secret key',
  'card number',
  'credit card',
  'security code',
]);

const GENERIC_LABELS = new Set(['value', 'input', 'answer', 'response', 'field', 'data']);

/** `apiKey`, `API_KEY2`, `Your API key` → lower-case words (`api`, `key`, …). */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])([0-9])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function looksSecret(text: string): boolean {
  const list = words(text);
  return list.some(
    (word, index) => SECRET_WORDS.has(word) || SECRET_PAIRS.has(`${word} ${list[index + 1]}`),
  );
}

/**
 * Warnings for a schema a server is about to register or send: shapes that pass validation but
 * that real clients are known to get wrong.
 *
 * - `top-level-title`: strict clients (Codex parses with unknown fields denied) refuse the
 *   whole request.
 * - `nothing-to-render`: an empty form; some clients (VS Code) show a dead dialog. Ask for a
 *   `Boolean` confirmation instead.
 * - `secret-field`: the spec requires URL mode for passwords, API keys, tokens and payment data.
 * - `generic-label`: a field labelled "Value", "Input" and the like (by its title, or by its name
 *   when untitled, as the `value` wrapper is) tells the user nothing (VS Code shows it as the
 *   label); pass `responseTitle`, or give the field a title.
 */
export function lintElicitationSchema(schema: ElicitationSchema): SchemaWarning[] {
  const warnings: SchemaWarning[] = [];
  if ((schema as { title?: unknown }).title !== undefined) {
    warnings.push({
      code: 'top-level-title',
      message:
        'The schema has a top-level title; some clients refuse unknown top-level keys and reject ' +
        'the request. Put the wording in the elicitation message instead.',
    });
  }
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const names = Object.keys(properties);
  if (names.length === 0) {
    warnings.push({
      code: 'nothing-to-render',
      message:
        'The schema has no fields, so there is nothing to render; some clients show an empty, ' +
        'non-functional form. Ask for a yes/no answer (Boolean) instead.',
    });
  }
  for (const name of names) {
    const field = properties[name];
    const title = typeof field?.title === 'string' ? field.title : undefined;
    if (looksSecret(name) || (title !== undefined && looksSecret(title))) {
      warnings.push({
        code: 'secret-field',
        field: name,
        message:
          `Field '${name}' looks like a secret (password, token, API key or payment data); the ` +
          'spec requires URL-mode elicitation for those, never a form field.',
      });
    }
    const label = (title ?? name).trim().toLowerCase();
    if (GENERIC_LABELS.has(label)) {
      warnings.push({
        code: 'generic-label',
        field: name,
        message:
          `Field '${name}' is labelled '${title ?? name}', which clients show as it is; give it a ` +
          'title that says what is asked (responseTitle for a wrapped response type).',
      });
    }
  }
  return warnings;
}
