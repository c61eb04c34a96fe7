import { runCli, UsageError } from '@mcp-reference/shared';
import { createGitServer } from './server.js';
import { gitOptions } from './options.js';
import { resolveRepositories } from './lib/repositories.js';
import pkg from '../package.json' with { type: 'json' };

void runCli(
  {
    name: 'mcp-server-git',
    version: pkg.version,
    description: pkg.description,
    options: gitOptions,
    epilog:
      'With no --repository, access comes from the client\'s roots; with some, roots can only narrow them.\n' +
      'Example: mcp-server-git --repository ~/src/app --repository ~/src/lib --read-only',
  },
  async (options, logger) => {
    const { repositories, skipped } = await resolveRepositories(options.repository);
    if (skipped.length) throw new UsageError(`${skipped[0].input}: ${skipped[0].reason}`);
    if (repositories.length === 0) logger.log('info', 'no --repository given: access comes from client roots');
    return createGitServer({ ...options, repositories, logLevel: options.logLevel as 'info', logger });
  },
);
