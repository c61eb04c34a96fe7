import { runCli } from '@mcp-reference/shared';
import { createTemplateServer } from './server.js';
import { templateOptions } from './options.js';
import pkg from '../package.json' with { type: 'json' };

void runCli(
  {
    name: 'mcp-server-template',
    version: pkg.version,
    description: pkg.description,
    options: templateOptions,
    positional: { key: 'dirs', name: 'NOTES_DIR' },
  },
  (options, logger) => createTemplateServer({ ...options, logLevel: options.logLevel as 'info', logger }),
);
