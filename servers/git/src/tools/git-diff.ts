import { z } from 'zod';
import { defineTool } from '../context.js';
import { workTreePath, verifyRevision, commitOf } from '../lib/validate.js';
import type { BaseContext } from '@mcp-reference/shared';
import type { GitContext } from '../context.js';
import type { Repo } from '../lib/repo.js';
import type { DiffFile } from '../lib/parse.js';
import { repoPath, contextLines, diffOutput, runDiff, DIFF_SAFETY, diffFileLinks, startByte, diffCutNote } from './common.js';

/** Work-tree diffs link to the files as committed at HEAD (none before the first commit). */
async function headLinks(ctx: BaseContext & GitContext, repo: Repo, files: DiffFile[]) {
  if (files.length === 0) return [];
  const head = await commitOf(repo, 'HEAD', ctx.signal).catch(() => undefined);
  return head ? diffFileLinks(ctx, repo, 'HEAD', files, 'old') : [];
}

const pathFilter = z.string().optional().describe('Only this file or directory (relative to the repository top)');
const render = (out: { diff: string; truncated: boolean; next_byte?: number }) => (out.diff || 'No changes.') + diffCutNote(out);

/** git_diff_unstaged and git_diff_staged: the same tool but for `--cached`. */
function workTreeDiff(name: string, title: string, description: string, cached: boolean) {
  return defineTool({
    name,
    title,
    description,
    input: z.object({ repo_path: repoPath, context_lines: contextLines, path: pathFilter, start_byte: startByte }),
    output: diffOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
    view: 'ui://git/diff',
    render,
    async handler({ repo_path, context_lines, path, start_byte }, ctx) {
      const repo = await ctx.repos.resolve(repo_path);
      const paths = path === undefined ? [] : [await workTreePath(repo, path)];
      const args = ['diff', ...(cached ? ['--cached'] : []), ...DIFF_SAFETY, `--unified=${context_lines}`, '--', ...paths];
      const result = await runDiff(ctx, repo, args, start_byte);
      return ctx.result({ repository: repo.root, ...result }, await headLinks(ctx, repo, result.files));
    },
  });
}

export const gitDiffUnstaged = workTreeDiff('git_diff_unstaged', 'Diff Unstaged', 'Show changes in the working directory that are not yet staged.', false);

export const gitDiffStaged = workTreeDiff('git_diff_staged', 'Diff Staged', 'Show changes that are staged for commit.', true);

export const gitDiff = defineTool({
  name: 'git_diff',
  title: 'Diff',
  description: 'Show differences between the working tree and a branch or commit (target), or between two revisions ("a..b").',
  input: z.object({
    repo_path: repoPath,
    target: z.string().describe('A branch, tag or commit to compare the working tree with, or a range "a..b"'),
    context_lines: contextLines,
    path: pathFilter,
    start_byte: startByte,
  }),
  output: diffOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  view: 'ui://git/diff',
  render,
  async handler({ repo_path, target, context_lines, path, start_byte }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    await verifyRevision(repo, target, 'target', ctx.signal);
    const paths = path === undefined ? [] : [await workTreePath(repo, path)];
    const result = await runDiff(ctx, repo, ['diff', ...DIFF_SAFETY, `--unified=${context_lines}`, '--end-of-options', target, '--', ...paths], start_byte);
    const range = /^(.*?)\.\.\.?(.*)$/.exec(target);
    const links = range ? diffFileLinks(ctx, repo, range[2] || 'HEAD', result.files, 'new') : diffFileLinks(ctx, repo, target, result.files, 'old');
    return ctx.result({ repository: repo.root, ...result }, links);
  },
});
