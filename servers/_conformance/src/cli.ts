import { runCli } from '@mcp-reference/shared';
import { z } from 'zod';
import { createConformanceServer } from './server.js';

void runCli(
  {
    name: 'mcp-conformance-fixture',
    version: '0.0.0',
    description: "The conformance suite's fixture server (tools, resources and prompts named test_* / test://)",
    options: z.object({}),
  },
  (options, logger) => createConformanceServer({ logLevel: options.logLevel as 'info', logger }),
);
