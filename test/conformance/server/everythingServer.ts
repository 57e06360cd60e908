/**
 * The "everything" server the official MCP conformance suite expects, built only on Parley's
 * public API. Handshake-era fixtures ask with `ctx.elicit()`/`ctx.sample()`; the modern MRTR
 * fixtures use the guard pattern. Fixture names and texts are the suite's contract.
 */
import * as z from 'zod';

import {
  ParleyServer,
  elicitRequest,
  inputRequired,
  rootsRequest,
  sampleRequest,
} from '@parley/server';

import { addTaskFixtures } from './taskFixtures.ts';

const IMAGE =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const AUDIO = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createEverythingServer(): ParleyServer {
  const mcp = new ParleyServer({
    name: 'parley-everything-server',
    version: '1.0.0',
    onWarning: () => {},
    onError: () => {},
  });

  // ---- Content ------------------------------------------------------------------------------

  mcp.tool(
    'test_simple_text',
    { description: 'Tests simple text content response' },
    () => 'This is a simple text response for testing.',
  );
  mcp.tool('test_image_content', { description: 'Tests image content response' }, () => ({
    type: 'image',
    data: IMAGE,
    mimeType: 'image/png',
  }));
  mcp.tool('test_audio_content', { description: 'Tests audio content response' }, () => ({
    type: 'audio',
    data: AUDIO,
    mimeType: 'audio/wav',
  }));
  mcp.tool(
    'test_embedded_resource',
    { description: 'Tests embedded resource content response' },
    () => ({
      type: 'resource',
      resource: {
        uri: 'test://embedded-resource',
        mimeType: 'text/plain',
        text: 'This is an embedded resource content.',
      },
    }),
  );
  mcp.tool(
    'test_multiple_content_types',
    { description: 'Tests response with multiple content types' },
    () => [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: IMAGE, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: '{"test":"data","value":123}',
        },
      },
    ],
  );
  mcp.tool('test_error_handling', { description: 'Tests error response handling' }, () => {
    throw new Error('This tool intentionally returns an error for testing');
  });

  mcp.tool(
    'test_tool_with_logging',
    { description: 'Tests tool that emits log messages during execution' },
    async (_args, ctx) => {
      await ctx.log('info', 'Tool execution started');
      await sleep(50);
      await ctx.log('info', 'Tool processing data');
      await sleep(50);
      await ctx.log('info', 'Tool execution completed');
      return 'Tool with logging executed successfully';
    },
  );

  mcp.tool(
    'test_tool_with_progress',
    { description: 'Tests tool that reports progress notifications' },
    async (_args, ctx) => {
      for (const progress of [0, 50, 100]) {
        await ctx.reportProgress(progress, 100, `Completed step ${progress} of 100`);
        if (progress < 100) await sleep(50);
      }
      return 'Progress reported';
    },
  );

  // ---- Handshake era: server-initiated requests ----------------------------------------------

  mcp.tool(
    'test_sampling',
    {
      description: 'Tests server-initiated sampling',
      inputSchema: { prompt: z.string().describe('The prompt to send to the LLM') },
    },
    async ({ prompt }, ctx) => {
      const result = await ctx.sample(prompt, { maxTokens: 100 });
      const text =
        !Array.isArray(result.content) && result.content.type === 'text' ? result.content.text : '';
      return `LLM response: ${text}`;
    },
  );

  mcp.tool(
    'test_elicitation',
    {
      description: 'Tests server-initiated elicitation',
      inputSchema: { message: z.string().describe('The message to show the user') },
    },
    async ({ message }, ctx) => {
      const result = await ctx.elicit(
        message,
        z.object({
          username: z.string().describe('Your username'),
          email: z.string().describe('Your email address'),
        }),
      );
      const content = result.action === 'accept' ? result.data : {};
      return `User response: action=${result.action}, content=${JSON.stringify(content)}`;
    },
  );

  mcp.tool(
    'test_elicitation_sep1034_defaults',
    { description: 'Tests elicitation with default values per SEP-1034' },
    async (_args, ctx) => {
      const result = await ctx.elicit('Please review and update the form fields with defaults', {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: {
            type: 'string',
            description: 'User status',
            enum: ['active', 'inactive', 'pending'],
            default: 'active',
          },
          verified: { type: 'boolean', description: 'Verification status', default: true },
        },
        required: [],
      });
      return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.action === 'accept' ? result.data : {})}`;
    },
  );

  mcp.tool(
    'test_elicitation_sep1330_enums',
    { description: 'Tests elicitation with enum schema improvements per SEP-1330' },
    async (_args, ctx) => {
      const result = await ctx.elicit('Please select options from the enum fields', {
        type: 'object',
        properties: {
          untitledSingle: {
            type: 'string',
            description: 'Select one option',
            enum: ['option1', 'option2', 'option3'],
          },
          titledSingle: {
            type: 'string',
            description: 'Select one option with titles',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: {
            type: 'string',
            description: 'Select one option (legacy)',
            enum: ['opt1', 'opt2', 'opt3'],
            enumNames: ['Option One', 'Option Two', 'Option Three'],
          },
          untitledMulti: {
            type: 'array',
            description: 'Select multiple options',
            minItems: 1,
            maxItems: 3,
            items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          },
          titledMulti: {
            type: 'array',
            description: 'Select multiple options with titles',
            minItems: 1,
            maxItems: 3,
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        },
        required: [],
      });
      return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.action === 'accept' ? result.data : {})}`;
    },
  );

  // ---- Modern era: the guard pattern (SEP-2322) -----------------------------------------------

  const askName = elicitRequest('What is your name?', z.object({ name: z.string() }));
  mcp.tool(
    'test_input_required_result_elicitation',
    {
      description: 'MRTR: asks for the caller name',
      // Declared, so a client that answers before being asked (as the suite does) is heard.
      asks: { user_name: askName },
    },
    (_args, ctx) => {
      const name = ctx.answer('user_name', askName);
      if (name === undefined) return inputRequired({ inputRequests: { user_name: askName } });
      return name.action === 'accept' ? `Hello, ${name.data.name}!` : `No name (${name.action})`;
    },
  );

  mcp.tool(
    'test_input_required_result_sampling',
    { description: 'MRTR: asks the client model a question' },
    (_args, ctx) => {
      const ask = sampleRequest('What is the capital of France?', { maxTokens: 100 });
      const answer = ctx.answer('sample_request', ask);
      if (answer === undefined) return inputRequired({ inputRequests: { sample_request: ask } });
      const text =
        !Array.isArray(answer.content) && answer.content.type === 'text' ? answer.content.text : '';
      return `The model said: ${text}`;
    },
  );

  mcp.tool(
    'test_input_required_result_list_roots',
    { description: 'MRTR: asks for the client roots' },
    (_args, ctx) => {
      const roots = ctx.answer('roots_request', rootsRequest());
      if (roots === undefined)
        return inputRequired({ inputRequests: { roots_request: rootsRequest() } });
      return `Roots: ${roots.map((root) => root.uri).join(', ')}`;
    },
  );

  const askConfirm = elicitRequest('Please confirm', z.object({ ok: z.boolean() }));
  mcp.tool(
    'test_input_required_result_request_state',
    { description: 'MRTR: carries requestState' },
    (_args, ctx) => {
      const confirm = ctx.answer('confirm', askConfirm);
      if (ctx.requestState !== 'awaiting-confirmation' || confirm === undefined) {
        return inputRequired({
          inputRequests: { confirm: askConfirm },
          requestState: 'awaiting-confirmation',
        });
      }
      return confirm.action === 'accept' && confirm.data.ok ? 'state-ok' : 'not confirmed';
    },
  );

  mcp.tool(
    'test_input_required_result_tampered_state',
    { description: 'MRTR: integrity-protected requestState' },
    (_args, ctx) => {
      const confirm = ctx.answer('confirm', askConfirm);
      if (ctx.requestState === null || confirm === undefined) {
        return inputRequired({
          inputRequests: { confirm: askConfirm },
          requestState: 'confirm-pending',
        });
      }
      return 'state verified';
    },
  );

  mcp.tool(
    'test_input_required_result_multiple_inputs',
    { description: 'MRTR: several kinds in one round' },
    (_args, ctx) => {
      const name = ctx.answer('user_name', askName);
      const askGreeting = sampleRequest('Write a one-line greeting', { maxTokens: 50 });
      const greeting = ctx.answer('greeting', askGreeting);
      const roots = ctx.answer('client_roots', rootsRequest());
      if (
        ctx.requestState !== 'all-asked' ||
        name === undefined ||
        greeting === undefined ||
        roots === undefined
      ) {
        return inputRequired({
          inputRequests: {
            user_name: askName,
            greeting: askGreeting,
            client_roots: rootsRequest(),
          },
          requestState: 'all-asked',
        });
      }
      return `name=${name.action === 'accept' ? name.data.name : '-'}, roots=${roots.length}`;
    },
  );

  const askColor = elicitRequest('What is your favorite color?', z.object({ color: z.string() }));
  mcp.tool(
    'test_input_required_result_multi_round',
    { description: 'MRTR: two rounds of asks' },
    (_args, ctx) => {
      if (ctx.requestState === null) {
        return inputRequired({ inputRequests: { step1: askName }, requestState: 'step-1' });
      }
      if (ctx.requestState.startsWith('step-1')) {
        const name = ctx.answer('step1', askName);
        if (name === undefined || name.action !== 'accept') {
          return inputRequired({ inputRequests: { step1: askName }, requestState: 'step-1' });
        }
        return inputRequired({
          inputRequests: { step2: askColor },
          requestState: `step-2:${name.data.name}`,
        });
      }
      const color = ctx.answer('step2', askColor);
      const name = ctx.requestState.slice('step-2:'.length);
      if (color === undefined || color.action !== 'accept') {
        return inputRequired({
          inputRequests: { step2: askColor },
          requestState: ctx.requestState,
        });
      }
      return `${name} likes ${color.data.color}`;
    },
  );

  mcp.tool(
    'test_input_required_result_capabilities',
    { description: 'MRTR: asks only for what the client declared' },
    (_args, ctx) => {
      const askSample = sampleRequest('Say something', { maxTokens: 20, optional: true });
      const elicited = ctx.answer('elicit_input', String);
      const sampled = ctx.answer('sample_input', askSample);
      if (elicited === undefined && sampled === undefined) {
        return inputRequired({
          inputRequests: {
            elicit_input: elicitRequest('Anything to add?', String, {
              responseTitle: 'Note',
              optional: true,
            }),
            sample_input: askSample,
          },
        });
      }
      return `answered: ${[elicited && 'elicitation', sampled && 'sampling'].filter(Boolean).join(', ')}`;
    },
  );

  const askContext = elicitRequest(
    'What context should the prompt use?',
    z.object({ context: z.string() }),
  );
  mcp.prompt(
    'test_input_required_result_prompt',
    { description: 'MRTR: a prompt that asks before it renders' },
    (_args, ctx) => {
      const context = ctx.answer('user_context', askContext);
      if (context === undefined)
        return inputRequired({ inputRequests: { user_context: askContext } });
      return `Use this context: ${context.action === 'accept' ? context.data.context : 'none'}`;
    },
  );

  // ---- Modern era: server-stateless diagnostics ----------------------------------------------

  mcp.tool(
    'test_missing_capability',
    { description: 'Requires the sampling client capability' },
    (_args, ctx) => {
      const ask = sampleRequest('Reply with the single word: pong', { maxTokens: 16 });
      if (ctx.answer('llm_answer', ask) === undefined) {
        return inputRequired({
          inputRequests: {
            llm_answer: ask,
          },
        });
      }
      return 'sampling round-trip complete';
    },
  );
  mcp.tool(
    'test_streaming_elicitation',
    { description: 'A response stream carrying no independent requests' },
    () => 'stream observed: result frames only',
  );
  mcp.tool(
    'test_logging_tool',
    { description: 'Logs only when the request asked for logs' },
    async (_args, ctx) => {
      await ctx.log('info', 'test_logging_tool ran');
      return 'logged through the request-scoped channel';
    },
  );

  mcp.tool(
    'test_reconnection',
    { description: 'Closes its SSE stream mid-call; the result arrives on the resumed stream' },
    async (_args, ctx) => {
      // SEP-1699: the client reconnects with Last-Event-ID and gets the result from the event
      // store; the pause lets the stream close before the result is sent.
      ctx.closeStream();
      await sleep(200);
      return 'Reconnection test completed';
    },
  );

  mcp.tool('test_trigger_tool_change', { description: 'Announces a tools list change' }, () => {
    mcp.notifyListChanged('tools');
    return 'tools_list_changed published';
  });
  mcp.tool('test_trigger_prompt_change', { description: 'Announces a prompts list change' }, () => {
    mcp.notifyListChanged('prompts');
    return 'prompts_list_changed published';
  });

  // ---- Raw JSON Schema parameters -------------------------------------------------------------

  mcp.tool(
    'json_schema_2020_12_tool',
    {
      description: 'Tool with JSON Schema 2020-12 features (SEP-1613, SEP-2106)',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            $anchor: 'addressDef',
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        then: { required: ['phone'] },
        else: { required: ['email'] },
        additionalProperties: false,
      },
    },
    (args) => `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`,
  );

  mcp.tool(
    'test_x_mcp_header',
    {
      description: 'Mirrors an argument into an Mcp-Param header (SEP-2243)',
      inputSchema: {
        type: 'object',
        properties: {
          region: {
            type: 'string',
            description: 'mirrored into Mcp-Param-Region',
            'x-mcp-header': 'Region',
          },
          level: { type: 'integer', description: 'non-mirrored argument' },
        },
      },
    },
    (args) => `region=${String(args.region ?? '<none>')}`,
  );

  // ---- Resources ------------------------------------------------------------------------------

  mcp.resource(
    'test://static-text',
    { name: 'static-text', title: 'Static Text Resource', mimeType: 'text/plain' },
    () => 'This is the content of the static text resource.',
  );
  mcp.resource(
    'test://static-binary',
    { name: 'static-binary', title: 'Static Binary Resource', mimeType: 'image/png' },
    () => Uint8Array.from(atob(IMAGE), (char) => char.charCodeAt(0)),
  );
  mcp.resourceTemplate(
    'test://template/{id}/data',
    { name: 'template', title: 'Resource Template', mimeType: 'application/json' },
    (_uri, { id }) => ({
      id,
      templateTest: true,
      data: `Data for ID: ${String(id)}`,
    }),
  );
  mcp.resource(
    'test://watched-resource',
    { name: 'watched-resource', title: 'Watched Resource', mimeType: 'text/plain' },
    () => 'Watched resource content',
  );

  // ---- Prompts --------------------------------------------------------------------------------

  mcp.prompt(
    'test_simple_prompt',
    { title: 'Simple Test Prompt', description: 'A simple prompt without arguments' },
    () => 'This is a simple prompt for testing.',
  );
  mcp.prompt(
    'test_prompt_with_arguments',
    {
      title: 'Prompt With Arguments',
      description: 'A prompt with required arguments',
      arguments: {
        arg1: z.string().describe('First test argument'),
        arg2: z.string().describe('Second test argument'),
      },
    },
    ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  );
  mcp.prompt(
    'test_prompt_with_embedded_resource',
    {
      title: 'Prompt With Embedded Resource',
      description: 'A prompt that includes an embedded resource',
      arguments: { resourceUri: z.string().describe('URI of the resource to embed') },
    },
    ({ resourceUri }) => [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: resourceUri,
            mimeType: 'text/plain',
            text: 'Embedded resource content for testing.',
          },
        },
      },
      {
        role: 'user',
        content: { type: 'text', text: 'Please process the embedded resource above.' },
      },
    ],
  );
  mcp.prompt(
    'test_prompt_with_image',
    { title: 'Prompt With Image', description: 'A prompt that includes image content' },
    () => [
      { role: 'user', content: { type: 'image', data: IMAGE, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  );

  // ---- Tasks (SEP-2663) -------------------------------------------------------------------

  addTaskFixtures(mcp);

  return mcp;
}
