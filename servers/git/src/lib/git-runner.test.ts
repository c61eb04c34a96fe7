import { describe, it, expect } from 'vitest';
import { describeFailure, driverOverrides, gitEnv } from './git-runner.js';

describe('driverOverrides', () => {
  it('blanks every program of each filter, diff and merge driver, keeping the subsection as written', () => {
    const overrides = driverOverrides(['filter.LFSish.clean', 'filter.LFSish.smudge', 'diff.pdf.textconv', 'merge.ours.driver', 'core.bare', 'filter.a.b.c.process']);
    expect(overrides).toEqual([
      '-c', 'filter.LFSish.clean=', '-c', 'filter.LFSish.smudge=', '-c', 'filter.LFSish.process=', '-c', 'filter.LFSish.required=false',
      '-c', 'diff.pdf.textconv=', '-c', 'diff.pdf.command=',
      '-c', 'merge.ours.driver=false',
      '-c', 'filter.a.b.c.clean=', '-c', 'filter.a.b.c.smudge=', '-c', 'filter.a.b.c.process=', '-c', 'filter.a.b.c.required=false',
    ]);
  });
});

describe('gitEnv', () => {
  it("drops the caller's GIT_* variables but the identity, and points git at the checked repository", () => {
    const saved = { ...process.env };
    Object.assign(process.env, { GIT_DIR: '/elsewhere', GIT_CONFIG_PARAMETERS: "'core.hookspath'='x'", GIT_AUTHOR_NAME: 'Ada' });
    try {
      const env = gitEnv({ gitDir: '/r/.git', root: '/r' });
      expect(env).toMatchObject({ GIT_DIR: '/r/.git', GIT_WORK_TREE: '/r', GIT_AUTHOR_NAME: 'Ada', GIT_TERMINAL_PROMPT: '0' });
      expect(env.GIT_CONFIG_PARAMETERS).toBeUndefined();
    } finally {
      process.env = saved;
    }
  });
});

describe('describeFailure', () => {
  it('names a leftover index.lock and says the server leaves it alone', () => {
    const message = describeFailure("fatal: Unable to create '/r/.git/index.lock': File exists.\n\nAnother git process seems to be running", ['add']);
    expect(message).toContain('/r/.git/index.lock');
    expect(message).toMatch(/never deletes it/);
  });
});
