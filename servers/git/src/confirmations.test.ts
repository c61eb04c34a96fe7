import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { connectInMemory, slowPerson, unlessStillWaiting } from '@mcp-reference/test-harness';
import { open, refusal, sampleRepo, textOf, type Session, type ToolResult } from './test-support.js';

// Issue 21, item 4: a confirmation is asked BEFORE the repository's write lock is taken, and
// what the person was asked about is looked at again under the lock.

describe('git confirmations: ask first, then lock, then look again (issue 21, item 4)', () => {
  let repo: Awaited<ReturnType<typeof sampleRepo>>;
  let session: Session | undefined;
  beforeEach(async () => {
    repo = await sampleRepo();
  });
  afterEach(async () => {
    await session?.close();
    session = undefined;
    await repo.cleanup();
  });

  /** Opens a session whose user answers slowly, and a second client of the same server (another session). */
  async function twoSessions() {
    const person = slowPerson();
    session = await open({ repositories: [repo.root] }, { elicit: person.elicit });
    const other = await connectInMemory(session.server);
    const callOther = async (name: string, args: Record<string, unknown>) => (await other.client.callTool({ name, arguments: args })) as ToolResult;
    return { person, other, callOther };
  }

  it('git_reset hard: another session stages while the user is asked; the reset is refused and discards nothing', async () => {
    await writeFile(repo.path('src/a.txt'), 'edited\n');
    const { person, other, callOther } = await twoSessions();
    try {
      const reset = session!.call('git_reset', { repo_path: repo.root, hard: true });
      expect(await person.asked).toMatch(/Discard uncommitted changes to 1 file\(s\) .*src\/a\.txt/);
      const staged = await unlessStillWaiting(callOther('git_add', { repo_path: repo.root, files: ['src/a.txt'] }));
      expect(staged === undefined ? 'still waiting' : staged.isError ? textOf(staged) : 'done').toBe('done');
      person.answer();
      const result = await reset;
      expect(result.isError, textOf(result)).toBe(true);
      expect(textOf(result)).toMatch(/changed before they could be discarded.*nothing was reset/);
      // No effect: the edit is still there, and still staged.
      expect(await readFile(repo.path('src/a.txt'), 'utf8')).toBe('edited\n');
      expect(await repo.git('diff', '--cached', '--name-only')).toBe('src/a.txt');
    } finally {
      person.answer();
      await other.close();
    }
  }, 30_000);

  it('git_reset hard: a file edited again while the user is asked (same status line) is not discarded', async () => {
    await writeFile(repo.path('src/a.txt'), 'edited\n');
    const { person, other } = await twoSessions();
    try {
      const reset = session!.call('git_reset', { repo_path: repo.root, hard: true });
      await person.asked;
      await writeFile(repo.path('src/a.txt'), 'edited again, with more the person never saw\n');
      person.answer();
      const result = await reset;
      expect(result.isError, textOf(result)).toBe(true);
      expect(await readFile(repo.path('src/a.txt'), 'utf8')).toBe('edited again, with more the person never saw\n');
    } finally {
      person.answer();
      await other.close();
    }
  }, 30_000);

  it('git_reset hard still discards what the user was shown when nothing changed', async () => {
    await writeFile(repo.path('src/a.txt'), 'edited\n');
    const { person, other } = await twoSessions();
    try {
      const reset = session!.call('git_reset', { repo_path: repo.root, hard: true });
      await person.asked;
      person.answer();
      const result = await reset;
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ mode: 'hard', discarded: ['src/a.txt'] });
      expect(await readFile(repo.path('src/a.txt'), 'utf8')).toBe('alpha\nbeta\ngamma\n');
    } finally {
      await other.close();
    }
  });

  it('git_checkout force: another session stages while the user is asked; the switch is refused and changes nothing', async () => {
    await writeFile(repo.path('src/a.txt'), 'local edit\n');
    const { person, other, callOther } = await twoSessions();
    try {
      const checkout = session!.call('git_checkout', { repo_path: repo.root, branch_name: 'feature', force: true });
      expect(await person.asked).toMatch(/Switching to feature discards uncommitted changes to 1 file\(s\) \(src\/a\.txt; 1 insertion\(\+\), 3 deletions\(-\)\)/);
      const staged = await unlessStillWaiting(callOther('git_add', { repo_path: repo.root, files: ['src/a.txt'] }));
      expect(staged === undefined ? 'still waiting' : staged.isError ? textOf(staged) : 'done').toBe('done');
      person.answer();
      const result = await checkout;
      expect(result.isError, textOf(result)).toBe(true);
      expect(textOf(result)).toMatch(/the branch was not switched, and those changes are kept/);
      expect(await repo.git('branch', '--show-current')).toBe('main');
      expect(await readFile(repo.path('src/a.txt'), 'utf8')).toBe('local edit\n');
    } finally {
      person.answer();
      await other.close();
    }
  }, 30_000);

  it('git_stash pop: another session stashes while the user is asked; the pop is refused and applies nothing', async () => {
    await writeFile(repo.path('src/b.txt'), 'stashed first\n');
    await repo.git('stash', 'push', '-q', '-m', 'first');
    await writeFile(repo.path('src/a.txt'), 'local edit\n');
    const { person, other, callOther } = await twoSessions();
    try {
      const pop = session!.call('git_stash', { repo_path: repo.root, action: 'pop' });
      expect(await person.asked).toMatch(/Pop stash@\{0\} \("On main: first"\) onto 1 uncommitted change/);
      // The other session stashes the local edit: stash@{0} is now another stash.
      const pushed = await unlessStillWaiting(callOther('git_stash', { repo_path: repo.root, action: 'push', message: 'second' }));
      expect(pushed === undefined ? 'still waiting' : pushed.isError ? textOf(pushed) : 'done').toBe('done');
      person.answer();
      const result = await pop;
      expect(result.isError, textOf(result)).toBe(true);
      expect(textOf(result)).toMatch(/nothing was applied/);
      expect(await repo.git('stash', 'list', '--format=%gs')).toBe('On main: second\nOn main: first');
      expect(await repo.git('status', '--porcelain', '--untracked-files=no')).toBe('');
    } finally {
      person.answer();
      await other.close();
    }
  }, 30_000);

  /**
   * On 2026-07-28: git_reset --hard of one edited file, whose person approves each question;
   * while they read the first, the file is rewritten to `meanwhile`.
   */
  async function resetEditedBetweenRounds(meanwhile: string) {
    await writeFile(repo.path('src/a.txt'), 'edited\n');
    const questions: string[] = [];
    session = await open(
      { repositories: [repo.root] },
      {
        era: 'modern',
        elicit: async (message) => {
          questions.push(message);
          if (questions.length === 1) await writeFile(repo.path('src/a.txt'), meanwhile);
          return { action: 'accept', content: { confirm: true } };
        },
      },
    );
    const result = await session.call('git_reset', { repo_path: repo.root, hard: true });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(await readFile(repo.path('src/a.txt'), 'utf8')).toBe('alpha\nbeta\ngamma\n');
    return questions;
  }

  it('on 2026-07-28, where the call runs again with the answer, an edit between the rounds is asked about again', async () => {
    const questions = await resetEditedBetweenRounds('edited\nand more the person never saw\n');
    // The question carries the lines that would be lost: the second round's is another question.
    expect(questions).toEqual([
      expect.stringMatching(/\(src\/a\.txt; 1 insertion\(\+\), 3 deletions\(-\)\)\?$/),
      expect.stringMatching(/\(src\/a\.txt; 2 insertions\(\+\), 3 deletions\(-\)\)\?$/),
    ]);
  });

  it('on 2026-07-28, an edit between the rounds that words the question alike (same file, same line counts) is asked about again', async () => {
    // One insertion and three deletions still, so the question reads the same.
    const questions = await resetEditedBetweenRounds('EDITED, not what the person saw\n');
    expect(questions).toHaveLength(2);
    expect(questions[1]).toBe(questions[0]);
  });

  it('a decline still leaves everything as it was', async () => {
    await writeFile(repo.path('src/a.txt'), 'edited\n');
    session = await open({ repositories: [repo.root] }, { elicit: () => ({ action: 'decline' }) });
    expect(await refusal(session, 'git_reset', { repo_path: repo.root, hard: true })).toMatch(/declined/);
    expect(await readFile(repo.path('src/a.txt'), 'utf8')).toBe('edited\n');
  });
});
