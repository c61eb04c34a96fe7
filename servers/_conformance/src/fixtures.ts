// The tools, resources and prompts the conformance suite's scenarios call, with the
// content its reference fixture (examples/servers/typescript/everything-server.ts in
// modelcontextprotocol/conformance) returns. Built only from the base's definitions.
import { z } from 'zod';
import { blobContents, defineResource, defineResourceTemplate, definePrompt, defineTool, textContents, type SampleAnswer } from '@mcp-reference/shared';

export const TEST_IMAGE_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
export const TEST_AUDIO_BASE64 = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

const none = z.object({});
const text = (value: string) => ({ type: 'text' as const, text: value });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const tools = [
  defineTool({
    name: 'test_simple_text',
    description: 'Tests simple text content response',
    input: none,
    output: none,
    handler: () => ({ content: [text('This is a simple text response for testing.')] }),
  }),
  defineTool({
    name: 'test_image_content',
    description: 'Tests image content response',
    input: none,
    output: none,
    handler: () => ({ content: [{ type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' }] }),
  }),
  defineTool({
    name: 'test_audio_content',
    description: 'Tests audio content response',
    input: none,
    output: none,
    handler: () => ({ content: [{ type: 'audio', data: TEST_AUDIO_BASE64, mimeType: 'audio/wav' }] }),
  }),
  defineTool({
    name: 'test_embedded_resource',
    description: 'Tests embedded resource content response',
    input: none,
    output: none,
    handler: (_args, ctx) => ({
      content: [ctx.embed({ uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' })],
    }),
  }),
  defineTool({
    name: 'test_multiple_content_types',
    description: 'Tests response with multiple content types (text, image, resource)',
    input: none,
    output: none,
    handler: (_args, ctx) => ({
      content: [
        text('Multiple content types test:'),
        { type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' },
        ctx.embed({ uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) }),
      ],
    }),
  }),
  defineTool({
    name: 'test_tool_with_logging',
    description: 'Tests tool that emits log messages during execution',
    input: none,
    output: none,
    async handler(_args, ctx) {
      ctx.log('info', 'Tool execution started');
      await sleep(50);
      ctx.log('info', 'Tool processing data');
      await sleep(50);
      ctx.log('info', 'Tool execution completed');
      return { content: [text('Tool with logging executed successfully')] };
    },
  }),
  defineTool({
    name: 'test_tool_with_progress',
    description: 'Tests tool that reports progress notifications',
    input: none,
    output: none,
    async handler(_args, ctx) {
      for (const step of [0, 50, 100]) {
        await ctx.progress(step, 100, `Completed step ${step} of 100`);
        if (step < 100) await sleep(50);
      }
      return { content: [text('Progress reported')] };
    },
  }),
  defineTool({
    name: 'test_error_handling',
    description: 'Tests error response handling',
    input: none,
    output: none,
    handler: (_args, ctx) => ctx.error('This tool intentionally returns an error for testing'),
  }),
];

/** The answer as the reference fixture reports it. */
const answered = (prefix: string, answer: { action: string; content?: Record<string, unknown> } | undefined) =>
  answer ? `${prefix}: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}` : 'Elicitation not supported by this client';

export const elicitationTools = [
  defineTool({
    name: 'test_elicitation',
    description: 'Tests server-initiated elicitation (user input request)',
    input: z.object({ message: z.string().describe('The message to show the user') }),
    output: none,
    async handler({ message }, ctx) {
      const answer = await ctx.elicit({
        key: 'response',
        message,
        requestedSchema: { type: 'object', properties: { response: { type: 'string', description: "User's response" } }, required: ['response'] },
      });
      return { content: [text(answered('User response', answer))] };
    },
  }),
  defineTool({
    name: 'test_elicitation_sep1034_defaults',
    description: 'Tests elicitation with default values per SEP-1034',
    input: none,
    output: none,
    async handler(_args, ctx) {
      const answer = await ctx.elicit({
        key: 'defaults',
        message: 'Please review and update the form fields with defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
          required: [],
        },
      });
      return { content: [text(answered('Elicitation completed', answer))] };
    },
  }),
  defineTool({
    name: 'test_elicitation_sep1330_enums',
    description: 'Tests elicitation with enum schema improvements per SEP-1330',
    input: none,
    output: none,
    async handler(_args, ctx) {
      const answer = await ctx.elicit({
        key: 'enums',
        message: 'Please select options from the enum fields',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
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
        },
      });
      return { content: [text(answered('Elicitation completed', answer))] };
    },
  }),
  defineTool({
    name: 'test_input_required_result_elicitation',
    description: 'Tests a 2026-07-28 input_required round with one elicitation',
    input: none,
    output: none,
    async handler(_args, ctx) {
      const answer = await ctx.elicit({
        key: 'user_name',
        message: 'What is your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      });
      if (answer?.action !== 'accept') return ctx.error('No name was given.');
      return { content: [text(`Hello, ${String(answer.content?.name)}!`)] };
    },
  }),
];

const nameForm = (message: string, field: string) => ({
  message,
  requestedSchema: { type: 'object', properties: { [field]: { type: 'string' } }, required: [field] },
});
const completionText = (answer: SampleAnswer | undefined) => (answer?.content.type === 'text' ? answer.content.text : undefined);

/** The tools of the 2026-07-28 input_required scenarios and of 2025's sampling scenario, on `ctx.ask` / `ctx.sample`. */
/** A tool that asks one confirmation and says how it was answered (the requestState scenarios, honest and tampered). */
const confirmationTool = (name: string, description: string) =>
  defineTool({
    name,
    description,
    input: none,
    output: none,
    async handler(_args, ctx) {
      const answer = await ctx.elicit({
        key: 'confirm',
        message: 'Please confirm',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      });
      return { content: [text(answered('Confirmation', answer))] };
    },
  });

export const inputTools = [
  defineTool({
    name: 'test_sampling',
    description: 'Tests server-initiated sampling (LLM completion request)',
    input: z.object({ prompt: z.string().describe('The prompt to send to the LLM') }),
    output: none,
    async handler({ prompt }, ctx) {
      const answer = await ctx.sample({ key: 'completion', messages: [{ role: 'user', content: text(prompt) }], maxTokens: 100 });
      return { content: [text(answer ? `LLM response: ${completionText(answer) ?? 'No response'}` : 'Sampling not supported by this client')] };
    },
  }),
  defineTool({
    name: 'test_input_required_result_sampling',
    description: 'Tests a 2026-07-28 input_required round with one sampling request',
    input: none,
    output: none,
    async handler(_args, ctx) {
      const answer = await ctx.sample({
        key: 'capital_question',
        messages: [{ role: 'user', content: text('What is the capital of France?') }],
        maxTokens: 100,
      });
      if (!answer) return ctx.error('This client declared no sampling.');
      return { content: [text(`The model said: ${completionText(answer) ?? `(${answer.content.type})`}`)] };
    },
  }),
  defineTool({
    name: 'test_input_required_result_list_roots',
    description: 'Tests a 2026-07-28 input_required round with one roots/list request',
    input: none,
    output: none,
    async handler(_args, ctx) {
      const { client_roots } = await ctx.ask({ client_roots: { roots: true } });
      if (!client_roots) return ctx.error('This client declared no roots.');
      return { content: [text(`Roots: ${client_roots.map((root) => root.uri).join(', ') || '(none)'}`)] };
    },
  }),
  confirmationTool('test_input_required_result_request_state', 'Tests that requestState travels with a 2026-07-28 input_required round'),
  defineTool({
    name: 'test_input_required_result_multiple_inputs',
    description: 'Tests one input_required round with an elicitation, a sampling and a roots/list request',
    input: none,
    output: none,
    async handler(_args, ctx) {
      const answers = await ctx.ask({
        user_name: { elicit: nameForm('What is your name?', 'name') },
        greeting: { sample: { messages: [{ role: 'user', content: text('Generate a greeting') }], maxTokens: 50 } },
        client_roots: { roots: true },
      });
      return {
        content: [
          text(
            `name=${String(answers.user_name?.content?.name ?? '-')}, greeting=${completionText(answers.greeting) ?? '-'}, ` +
              `roots=${answers.client_roots?.length ?? '-'}`,
          ),
        ],
      };
    },
  }),
  defineTool({
    name: 'test_input_required_result_multi_round',
    description: 'Tests two input_required rounds, each with its own requestState',
    input: none,
    output: none,
    async handler(_args, ctx) {
      const step1 = await ctx.elicit({ key: 'step1', ...nameForm('Step 1: What is your name?', 'name') });
      const step2 = await ctx.elicit({ key: 'step2', ...nameForm('Step 2: What is your favorite color?', 'color') });
      return { content: [text(`name=${String(step1?.content?.name ?? '-')}, color=${String(step2?.content?.color ?? '-')}`)] };
    },
  }),
  confirmationTool('test_input_required_result_tampered_state', 'Tests that a tampered requestState is refused'),
  defineTool({
    name: 'test_input_required_result_capabilities',
    description: 'Tests that only the input requests the client declared are sent',
    input: none,
    output: none,
    async handler(_args, ctx) {
      const answers = await ctx.ask({
        elicit_input: { elicit: nameForm('Elicitation input', 'value') },
        sample_input: { sample: { messages: [{ role: 'user', content: text('Sample request') }], maxTokens: 50 } },
      });
      const received = Object.entries(answers)
        .filter(([, answer]) => answer !== undefined)
        .map(([key]) => key);
      return { content: [text(received.length ? `capabilities-ok: received ${received.join(',')}` : 'No supported capabilities declared')] };
    },
  }),
  defineTool({
    name: 'test_missing_capability',
    description: 'Needs the client to declare sampling: without it the call is a -32021 error',
    input: none,
    output: none,
    async handler(_args, ctx) {
      const { completion } = await ctx.ask(
        { completion: { sample: { messages: [{ role: 'user', content: text('Say "Success"') }], maxTokens: 10 } } },
        { required: true },
      );
      return { content: [text(completionText(completion) ?? 'Success')] };
    },
  }),
  defineTool({
    name: 'test_streaming_elicitation',
    description: 'Asks a form: its response stream carries an input_required result, never a request of its own',
    input: none,
    output: none,
    async handler(_args, ctx) {
      const answer = await ctx.elicit({ key: 'value', ...nameForm('A value, please', 'value') });
      return { content: [text(answered('Streaming complete', answer))] };
    },
  }),
  defineTool({
    name: 'test_logging_tool',
    description: 'Logs while it runs: only a request that set a log level receives the messages',
    input: none,
    output: none,
    handler(_args, ctx) {
      ctx.log('info', 'Diagnostic trace logging activated');
      return { content: [text('Logging evaluated')] };
    },
  }),
];

export const resources = [
  defineResource({
    uri: 'test://static-text',
    name: 'static-text',
    title: 'Static Text Resource',
    description: 'A static text resource for testing',
    mimeType: 'text/plain',
    read: () => [textContents('test://static-text', 'This is the content of the static text resource.')],
  }),
  defineResource({
    uri: 'test://static-binary',
    name: 'static-binary',
    title: 'Static Binary Resource',
    description: 'A static binary resource (image) for testing',
    mimeType: 'image/png',
    read: () => [blobContents('test://static-binary', Buffer.from(TEST_IMAGE_BASE64, 'base64'), 'image/png')],
  }),
  defineResource({
    uri: 'test://watched-resource',
    name: 'watched-resource',
    title: 'Watched Resource',
    description: 'A resource clients may subscribe to',
    mimeType: 'text/plain',
    read: () => [textContents('test://watched-resource', 'Watched resource content')],
  }),
];

export const templates = [
  defineResourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template',
    title: 'Resource Template',
    description: 'A resource template with parameter substitution',
    mimeType: 'application/json',
    read: (uri, { id }) => [
      textContents(uri, JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }), 'application/json'),
    ],
  }),
];

export const prompts = [
  definePrompt({
    name: 'test_simple_prompt',
    title: 'Simple Test Prompt',
    description: 'A simple prompt without arguments',
    args: none,
    handler: () => ({ messages: [{ role: 'user', content: text('This is a simple prompt for testing.') }] }),
  }),
  definePrompt({
    name: 'test_prompt_with_arguments',
    title: 'Prompt With Arguments',
    description: 'A prompt with required arguments',
    args: z.object({ arg1: z.string().describe('First test argument'), arg2: z.string().describe('Second test argument') }),
    complete: { arg1: (value) => ['paris', 'park', 'party'].filter((v) => v.startsWith(value)) },
    handler: ({ arg1, arg2 }) => ({
      messages: [{ role: 'user', content: text(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`) }],
    }),
  }),
  definePrompt({
    name: 'test_prompt_with_embedded_resource',
    title: 'Prompt With Embedded Resource',
    description: 'A prompt that includes an embedded resource',
    args: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }),
    handler: ({ resourceUri }) => ({
      messages: [
        { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
        { role: 'user', content: text('Please process the embedded resource above.') },
      ],
    }),
  }),
  definePrompt({
    name: 'test_input_required_result_prompt',
    title: 'Prompt With Input',
    description: 'A prompt that asks the user for context (an input_required round on 2026-07-28)',
    args: none,
    async handler(_args, ctx) {
      const answer = await ctx.elicit({ key: 'user_context', ...nameForm('What context should the prompt use?', 'context') });
      const context = answer?.action === 'accept' ? String(answer.content?.context ?? '') : '(none given)';
      return { messages: [{ role: 'user', content: text(`Use this context: ${context}`) }] };
    },
  }),
  definePrompt({
    name: 'test_prompt_with_image',
    title: 'Prompt With Image',
    description: 'A prompt that includes image content',
    args: none,
    handler: () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' } },
        { role: 'user', content: text('Please analyze the image above.') },
      ],
    }),
  }),
];
