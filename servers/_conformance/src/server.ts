import { createServer, type Logger, type McpServer } from '@mcp-reference/shared';
import { elicitationTools, inputTools, prompts, resources, templates, tools } from './fixtures.js';

/** The conformance fixture: the suite's own tools, resources and prompts on the base. */
export function createConformanceServer(options: { logLevel?: 'debug' | 'info'; logger?: Logger } = {}): McpServer {
  return createServer({
    name: 'mcp-conformance-fixture',
    version: '0.0.0',
    tools: [...tools, ...elicitationTools, ...inputTools],
    resources,
    templates,
    prompts,
    useRoots: false,
    logLevel: options.logLevel,
    logger: options.logger,
  });
}
