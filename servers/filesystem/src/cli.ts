import { runCli, UsageError } from '@mcp-reference/shared';
import { createFilesystemServer } from './server.js';
import { filesystemOptions } from './options.js';
import { realpathAllowedDirs } from './lib/path-policy.js';
import pkg from '../package.json' with { type: 'json' };

await runCli(
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
    // the server. But if none is left, starting would let client roots grant anything.
    for (const { input, reason } of skipped) logger.log('warning', `${input}: ${reason}; skipping it`);
    if (directories.length === 0 && options.dirs.length > 0) {
      throw new UsageError(`none of the directories given can be used (${skipped.map((s) => `${s.input}: ${s.reason}`).join('; ')})`);
    }
    if (directories.length === 0) logger.log('info', 'no DIR given: access comes from client roots');
    return createFilesystemServer({ ...options, dirs: directories, logLevel: options.logLevel as 'info', logger });
  },
);
