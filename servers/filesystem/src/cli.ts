import { runCli } from '@mcp-reference/shared';
import { createFilesystemServer } from './server.js';
import { filesystemOptions } from './options.js';
import { realpathAllowedDirs } from './lib/path-policy.js';
import pkg from '../package.json' with { type: 'json' };

void runCli(
  {
    name: 'mcp-server-filesystem',
    version: pkg.version,
    description: pkg.description,
    options: filesystemOptions,
    positional: { key: 'dirs', name: 'DIR...' },
    epilog:
      'With no DIR, access comes from the client\'s roots; with DIRs, roots can only narrow them.\n' +
      'Example: mcp-server-filesystem --read-only ~/projects ~/notes',
  },
  async (options, logger) => {
    const { directories, skipped } = await realpathAllowedDirs(options.dirs);
    // As the official server does: one stale directory in a client's config must not stop
    // the server. If none is left, the server still starts but allows nothing (client
    // roots cannot widen a ceiling the operator set), and every tool says why.
    for (const { input, reason } of skipped) logger.log('warning', `${input}: ${reason}; skipping it`);
    const unusableDirs = skipped.map(({ input, reason }) => `${input}: ${reason}`);
    if (directories.length === 0 && unusableDirs.length > 0) logger.log('warning', 'no DIR given can be used: every tool will refuse until the configuration is fixed');
    else if (directories.length === 0) logger.log('info', 'no DIR given: access comes from client roots');
    return createFilesystemServer({ ...options, dirs: directories, unusableDirs, logLevel: options.logLevel as 'info', logger });
  },
);
