/**
 * The one representation every schema library is compiled to before the vocabulary's rules run
 * (`fieldRules.ts`). A reader per source (`zodNode.ts` walks zod's own definitions,
 * `jsonSchemaNode.ts` reads the JSON Schema valibot, ArkType or any Standard JSON Schema library
 * produces) says only *what the library described*; whether the spec's restricted subset can
 * carry it, and the refusal when it cannot, is decided in one place for all of them.
 *
 * Nothing here is refused yet: a reader records a nested object, a nullable or a pattern as it
 * finds it, so every library gets the same message for the same thing.
 */

/** A constraint on a string, number or list, as the library stated it. */
export type Constraint =
  /** Length in characters for strings, in items for lists. */
  | { kind: 'minLength' | 'maxLength'; value: number }
  /** A string format, spelt as the spec spells it when the library's maps onto one (`uri`). */
  | { kind: 'format'; format: string }
  /** A regular expression the value must match. */
  | { kind: 'pattern' }
  | { kind: 'minimum' | 'maximum'; value: number; exclusive: boolean }
  | { kind: 'multipleOf'; value: number }
  /** Something the library checks that has no wire keyword; `what` reads "a 'includes' check". */
  | { kind: 'unsupported'; what: string };

/** What a value is. */
export type NodeShape =
  | { kind: 'string'; constraints: Constraint[] }
  | { kind: 'number'; integer: boolean; constraints: Constraint[] }
  | { kind: 'boolean' }
  /** A fixed set of values: an enum, a literal or a list of literals (strings or not). */
  | { kind: 'options'; values: unknown[] }
  /** One of several shapes. A union of options only is a set of options; anything else is not. */
  | { kind: 'union'; members: SchemaNode[] }
  | { kind: 'nullable'; inner: SchemaNode }
  | { kind: 'array'; items: SchemaNode; constraints: Constraint[] }
  | {
      kind: 'object';
      fields: FieldNode[];
      /** Keys beyond `fields`: refused (`none`), let through untyped (`ignored`) or typed (`typed`). */
      extraKeys: 'none' | 'ignored' | 'typed';
    }
  /** An object of arbitrary keys. */
  | { kind: 'record' }
  | { kind: 'tuple' }
  /** A value JSON cannot carry. */
  | { kind: 'date' }
  | { kind: 'bigint' }
  | { kind: 'null' }
  /** `undefined` as a member of a union: it adds nothing a form could ask for. */
  | { kind: 'undefined' }
  /** Anything else; `what` names it in the library's words ("a z.any()", "a v.map()"). */
  | { kind: 'other'; what: string };

/** One value with what wraps it: optionality, a default and labels. */
export interface SchemaNode {
  shape: NodeShape;
  /** The value may be left out (an optional or defaulted field). */
  optional: boolean;
  /** The default, when the library has one (SEP-1034); read once. */
  default?: { value: unknown };
  title?: string;
  description?: string;
  /** `optionTitles` metadata as the author wrote it; checked by the rules. */
  optionTitles?: unknown;
}

export interface FieldNode {
  name: string;
  node: SchemaNode;
}

/** A node with nothing around it. */
export function bare(shape: NodeShape): SchemaNode {
  return { shape, optional: false };
}
