import { describeServerContract } from '@mcp-reference/test-harness';
import { createGitServer } from './server.js';
import { repoId } from './lib/repo.js';
import { uris } from './lib/uris.js';
import { bin, sampleRepo } from './test-support.js';

describeServerContract('git', {
  bin,
  async setup() {
    const repo = await sampleRepo();
    for (let i = 0; i < 8; i++) await repo.git('branch', `topic-${i}`);
    const id = repoId(repo.root);
    return {
      args: ['--repository', repo.root],
      create: ({ pageSize }) => createGitServer({ repositories: [repo.root], pageSize, logLevel: 'error', pollIntervalMs: 100 }),
      pageSize: 5,
      linkingCall: { name: 'git_log', arguments: { repo_path: repo.root, max_count: 3 } },
      completion: {
        ref: { type: 'ref/resource', uri: 'git://{repo}/branch/{+branch}' },
        argument: { name: 'branch', value: 'fea' },
        context: { repo: id },
        expect: 'feature',
      },
      subscription: {
        uri: uris.branch(id, 'main'),
        change: async () => {
          await repo.commit('moved outside the server', { 'outside.txt': 'x\n' });
        },
      },
      cleanup: repo.cleanup,
    };
  },
});
