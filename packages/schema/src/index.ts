/**
 * The public API of @parley/schema: the response-type vocabulary. Everything exported here is
 * public and versioned: add to it deliberately, with a changeset.
 */

export { compileResponseType } from './compileResponseType.ts';
export type { ElicitableShape, ResponseTypeOptionsFor, UncarriableShape } from './elicitable.ts';
export type {
  CompiledResponseType,
  DeepReadonly,
  ElicitationSchemaInput,
  InferResponse,
  MultiSelectOf,
  ResponseType,
  ResponseTypeOptions,
  StringEnumObject,
  TitledOptions,
  ZodSchemaLike,
} from './responseType.ts';
export type {
  StandardJsonSchemaLike,
  StandardJsonSchemaTarget,
  StandardOutput,
  StandardSchemaLike,
} from './standardSchema.ts';
export { standardJsonSchema } from './libraryJsonSchema.ts';

export { validateElicitationSchema } from './validateElicitationSchema.ts';
export { lintElicitationSchema } from './lintElicitationSchema.ts';
export type { SchemaWarning } from './lintElicitationSchema.ts';

export { describeFields } from './describeFields.ts';
export { fieldValueProblem } from './fieldValue.ts';
export { REASK_SENTENCE, fieldLabel, readReask, reaskMessage } from './reaskMessage.ts';
export type { ReaskNotice } from './reaskMessage.ts';
export type { FieldDescriptor, FieldOption } from './fieldDescriptor.ts';
export type { StringFormat } from './formats.ts';
export { createResponseType } from './createResponseType.ts';
export type { AcceptedResponse, ResponseBuilder } from './createResponseType.ts';
