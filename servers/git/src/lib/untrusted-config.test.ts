import { describe, it, expect } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { sampleRepo } from '../test-support.js';
import { untrustedOverrides, type ConfigListingCache } from './untrusted-config.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 2_100));

describe('config listings reused between calls', () => {
  it('keeps a listing only once its files have stood still, and lists again when one changes', async () => {
    const repo = await sampleRepo();
    try {
      const target = { root: repo.root, gitDir: repo.path('.git'), commonDir: repo.path('.git') };
      await writeFile(repo.path('.git/inc.cfg'), '[diff "a"]\n\ttextconv = cat\n');
      await repo.git('config', 'include.path', 'inc.cfg');
      const listings: ConfigListingCache = new Map();
      // Just written: a change racing the listing could not be told apart, so nothing is kept.
      expect(await untrustedOverrides(target, undefined, { listings })).toContain('diff.a.textconv=');
      expect(listings.size).toBe(0);
      await settle();
      await untrustedOverrides(target, undefined, { listings });
      const kept = listings.get(target.gitDir);
      expect(kept?.names).toContain('diff.a.textconv');
      // The included file and the absent config.worktree are among what it depends on.
      expect(kept?.files).toEqual(expect.arrayContaining([repo.path('.git/inc.cfg'), repo.path('.git/config.worktree')]));
      // Reused: the same answer with no git process (a listing that is reused is not replaced).
      listings.set(target.gitDir, { ...kept!, names: ['diff.reused.textconv'] });
      expect(await untrustedOverrides(target, undefined, { listings })).toContain('diff.reused.textconv=');
      // Rewritten in place (same inode): listed again.
      await writeFile(repo.path('.git/inc.cfg'), '[merge "b"]\n\tdriver = true\n');
      const after = await untrustedOverrides(target, undefined, { listings });
      expect(after).toContain('merge.b.driver=false');
      expect(after).not.toContain('diff.reused.textconv=');
    } finally {
      await repo.cleanup();
    }
  });

  it('never keeps a listing with an includeIf, whose condition can turn on with no file changing', async () => {
    const repo = await sampleRepo();
    try {
      const target = { root: repo.root, gitDir: repo.path('.git'), commonDir: repo.path('.git') };
      await repo.git('config', 'includeIf.onbranch:other.path', 'other.cfg');
      await settle();
      const listings: ConfigListingCache = new Map();
      await untrustedOverrides(target, undefined, { listings });
      expect(listings.size).toBe(0);
    } finally {
      await repo.cleanup();
    }
  });
});
