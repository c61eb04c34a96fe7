// A server process for the base's own transport tests: tools that hang, wait for
// cancellation, return big results. Bundled on demand by `ensureFixtureBin`.
import { z } from 'zod';
import { createServer } from '../server.js';
import { defineTool } from '../definitions.js';
import { runCli } from '../cli.js';

const options = z.object({
  maxResultBytes: z.number().int().positive().optional().describe('Result budget'),
});

await runCli(
  { name: 'mcp-fixture', version: '0.1.0', description: 'Fixture server for the base tests', options },
  (parsed, logger) =>
    createServer({
      name: 'mcp-fixture',
      version: '0.1.0',
      logger,
      logLevel: parsed.logLevel as 'info',
      maxResultBytes: parsed.maxResultBytes,
      tools: [
        defineTool({
          name: 'echo',
          description: 'Echoes its text',
          input: z.object({ text: z.string() }),
          output: z.object({ text: z.string() }),
          handler: ({ text }, ctx) => ctx.result({ text }),
        }),
        defineTool({
          name: 'hang',
          description: 'Never answers, and ignores cancellation',
          input: z.object({}),
          output: z.object({}),
          handler: () => new Promise(() => undefined),
        }),
        defineTool({
          name: 'linger',
          description: 'Answers, and leaves a timer running that keeps the process alive (what a careless tool does)',
          input: z.object({}),
          output: z.object({}),
          handler: (_args, ctx) => {
            setInterval(() => undefined, 60_000);
            return ctx.result({});
          },
        }),
        defineTool({
          name: 'blob',
          description: 'Returns a string of the given size',
          input: z.object({ bytes: z.number().int().min(0) }),
          output: z.object({ data: z.string() }),
          render: (out) => `${out.data.length} bytes`,
          handler: ({ bytes }, ctx) => ctx.result({ data: 'x'.repeat(bytes) }),
        }),
      ],
    }),
);
