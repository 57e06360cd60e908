/**
 * The MCP wire shapes that travel inside input requests and their answers, in both eras.
 *
 * Parley keeps its own copy of these (rather than importing the SDK's) so that `@parley/core`
 * depends on nothing. They are structural: an SDK object of the same shape is assignable.
 */

/** A JSON value. */
export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** The `_meta` object any request, result or content block may carry. */
export type Meta = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Restricted elicitation schema (identical in 2025-11-25 and 2026-07-28)
// ---------------------------------------------------------------------------------------------

interface FieldSchemaBase {
  title?: string;
  description?: string;
}

/** A free-text field. `pattern` is deliberately absent: the spec's subset has none. */
export interface StringFieldSchema extends FieldSchemaBase {
  type: 'string';
  minLength?: number;
  maxLength?: number;
  format?: 'email' | 'uri' | 'date' | 'date-time';
  default?: string;
}

/** A number or integer field. */
export interface NumberFieldSchema extends FieldSchemaBase {
  type: 'number' | 'integer';
  minimum?: number;
  maximum?: number;
  default?: number;
}

/** A yes/no field. */
export interface BooleanFieldSchema extends FieldSchemaBase {
  type: 'boolean';
  default?: boolean;
}

/** Single select from plain values. */
export interface UntitledSingleSelectFieldSchema extends FieldSchemaBase {
  type: 'string';
  enum: string[];
  default?: string;
}

/** Single select with a display title per option (SEP-1330). */
export interface TitledSingleSelectFieldSchema extends FieldSchemaBase {
  type: 'string';
  oneOf: { const: string; title: string }[];
  default?: string;
}

/**
 * Single select with titles in a parallel `enumNames` list: the 2025-06-18 vocabulary (the spec's
 * `LegacyTitledEnumSchema`), deprecated by SEP-1330 and still sent by older servers.
 */
export interface EnumNamesSingleSelectFieldSchema extends FieldSchemaBase {
  type: 'string';
  enum: string[];
  enumNames?: string[];
  default?: string;
}

/** Multi-select from plain values. */
export interface UntitledMultiSelectFieldSchema extends FieldSchemaBase {
  type: 'array';
  minItems?: number;
  maxItems?: number;
  items: { type: 'string'; enum: string[] };
  default?: string[];
}

/** Multi-select with a display title per option (SEP-1330). */
export interface TitledMultiSelectFieldSchema extends FieldSchemaBase {
  type: 'array';
  minItems?: number;
  maxItems?: number;
  items: { anyOf: { const: string; title: string }[] };
  default?: string[];
}

/** One property of a restricted elicitation schema. */
export type PrimitiveFieldSchema =
  | StringFieldSchema
  | NumberFieldSchema
  | BooleanFieldSchema
  | UntitledSingleSelectFieldSchema
  | TitledSingleSelectFieldSchema
  | EnumNamesSingleSelectFieldSchema
  | UntitledMultiSelectFieldSchema
  | TitledMultiSelectFieldSchema;

/** The `requestedSchema` of a form elicitation: a flat object of primitive fields. */
export interface ElicitationSchema {
  $schema?: string;
  type: 'object';
  properties: Record<string, PrimitiveFieldSchema>;
  required?: string[];
}

// ---------------------------------------------------------------------------------------------
// Elicitation
// ---------------------------------------------------------------------------------------------

/** Parameters of a form-mode elicitation. A missing `mode` means form. */
export interface ElicitFormParams {
  mode?: 'form';
  message: string;
  requestedSchema: ElicitationSchema;
  _meta?: Meta;
}

/**
 * Parameters of a URL-mode elicitation (SEP-1036). `elicitationId` exists only on the handshake
 * era (2025-11-25), where the server may later send `notifications/elicitation/complete`.
 */
export interface ElicitUrlParams {
  mode: 'url';
  message: string;
  url: string;
  elicitationId?: string;
  _meta?: Meta;
}

/** An `elicitation/create` request (embedded form: no `jsonrpc`, no `id`). */
export interface ElicitRequest {
  method: 'elicitation/create';
  params: ElicitFormParams | ElicitUrlParams;
}

/** A value a form field can take. */
export type ElicitContentValue = string | number | boolean | string[];

/** The client's answer to an elicitation. */
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, ElicitContentValue>;
  _meta?: Meta;
}

// ---------------------------------------------------------------------------------------------
// Content blocks and sampling
// ---------------------------------------------------------------------------------------------

/** Optional hints on a content block. */
export interface ContentAnnotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

export interface TextContent {
  type: 'text';
  text: string;
  annotations?: ContentAnnotations;
  _meta?: Meta;
}

export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: ContentAnnotations;
  _meta?: Meta;
}

export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: ContentAnnotations;
  _meta?: Meta;
}

export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: ContentAnnotations;
  _meta?: Meta;
}

export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Meta;
}

export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  _meta?: Meta;
}

export interface EmbeddedResource {
  type: 'resource';
  resource: TextResourceContents | BlobResourceContents;
  annotations?: ContentAnnotations;
  _meta?: Meta;
}

/** A block of content in a tool result or prompt message. */
export type ContentBlock =
  TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** Content a sampling message can carry. */
export type SamplingContent = TextContent | ImageContent | AudioContent;

/** One message of a sampling conversation. */
export interface SamplingMessage {
  role: 'user' | 'assistant';
  content: SamplingContent | SamplingContent[];
  _meta?: Meta;
}

/** What the server would like the client's model choice to favour. */
export interface ModelPreferences {
  hints?: { name?: string }[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

/** Parameters of a `sampling/createMessage` request. */
export interface CreateMessageParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  modelPreferences?: ModelPreferences;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  temperature?: number;
  stopSequences?: string[];
  metadata?: JsonObject;
  _meta?: Meta;
}

/** A `sampling/createMessage` request: the server asks the client's model to generate. */
export interface CreateMessageRequest {
  method: 'sampling/createMessage';
  params: CreateMessageParams;
}

/** The client's answer to a sampling request. */
export interface CreateMessageResult {
  role: 'user' | 'assistant';
  content: SamplingContent | SamplingContent[];
  model: string;
  stopReason?: 'endTurn' | 'stopSequence' | 'maxTokens' | (string & {});
  _meta?: Meta;
}

// ---------------------------------------------------------------------------------------------
// Roots
// ---------------------------------------------------------------------------------------------

/** A root the client exposes: a directory or file the server may work in. */
export interface Root {
  uri: string;
  name?: string;
  _meta?: Meta;
}

/** A `roots/list` request. */
export interface ListRootsRequest {
  method: 'roots/list';
  params?: { _meta?: Meta };
}

/** The client's answer to a roots request. */
export interface ListRootsResult {
  roots: Root[];
  _meta?: Meta;
}

// ---------------------------------------------------------------------------------------------
// Capabilities
// ---------------------------------------------------------------------------------------------

/** What a client declares it can answer (once per session, or on every modern request). */
export interface ClientCapabilities {
  experimental?: Record<string, object>;
  roots?: { listChanged?: boolean };
  sampling?: { context?: object; tools?: object };
  elicitation?: { form?: object; url?: object };
  extensions?: Record<string, object>;
  [key: string]: unknown;
}

/** The name and version an MCP implementation introduces itself with. */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
}

// ---------------------------------------------------------------------------------------------
// Prompt and resource results
// ---------------------------------------------------------------------------------------------

/** A message of a prompt result. */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

/** The wire shape of a final `prompts/get` result. */
export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: Meta;
}

/** The wire shape of a final `resources/read` result. */
export interface ReadResourceResult {
  contents: (TextResourceContents | BlobResourceContents)[];
  _meta?: Meta;
}
