import { z } from 'zod';
import { defineTool } from '../context.js';
import { parseGrepLine, type GrepMatch } from '../lib/parse.js';
import { commitOf, treePath, ArgumentError } from '../lib/validate.js';
import { repoPath, repository, git, fileLink, progressByBytes } from './common.js';

export const gitGrep = defineTool({
  name: 'git_grep',
  title: 'Grep',
  description:
    'Search tracked file contents for a pattern, in the work tree or at a ref. The pattern is literal text unless regex is true ' +
    '(POSIX extended regex). pathspec limits the search to a path (glob allowed, e.g. "src/*.ts"). Stops after max_results matches.',
  input: z.object({
    repo_path: repoPath,
    pattern: z.string().min(1).describe('Text (or regex with regex: true) to search for'),
    pathspec: z.string().optional().describe('Only search under this path or glob, relative to the repository top'),
    ref: z.string().optional().describe('Search the files at this branch, tag or commit instead of the work tree'),
    regex: z.boolean().default(false).describe('Treat pattern as an extended regular expression'),
    ignore_case: z.boolean().default(false),
    max_results: z.number().int().min(1).max(10_000).default(100),
  }),
  output: z.object({
    repository,
    ref: z.string().nullable(),
    matches: z.array(z.object({ path: z.string(), line: z.number().int(), text: z.string() })),
    truncated: z.boolean().describe('True when there were more than max_results matches'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) => out.matches.map((m) => `${m.path}:${m.line}: ${m.text}`).join('\n') + (out.truncated ? '\n[more matches: raise max_results or narrow pathspec]' : '') || 'No matches.',
  async handler({ repo_path, pattern, pathspec, ref, regex, ignore_case, max_results }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const commit = ref === undefined ? undefined : await commitOf(repo, ref, ctx.signal);
    const specs: string[] = [];
    if (pathspec !== undefined) {
      if (pathspec.startsWith(':')) throw new ArgumentError('pathspec magic (":(...)") is not accepted; give a path or a glob.');
      const normal = treePath(pathspec);
      if (normal) specs.push(`:(glob)${normal}`);
    }
    // Read a bit more than max_results lines' worth, then stop git.
    const { stdout, truncated: cut } = await git(
      ctx,
      repo,
      [
        'grep', '-n', '--null', '-I', '--full-name', '--no-color', '--no-textconv',
        regex ? '-E' : '-F', ...(ignore_case ? ['-i'] : []),
        '-e', pattern, ...(commit ? [commit] : []), '--', ...specs,
      ],
      // direct: the pattern may start with "-", which simple-git's argument guard would refuse (git-runner.ts).
      { okCodes: [1], maxBytes: Math.max(ctx.maxOutputBytes, 64 * 1024), onData: progressByBytes(ctx), direct: true },
    );
    const rows = stdout.toString('utf8').split('\n');
    if (cut) rows.pop(); // the last row may be cut mid-way
    const matches: GrepMatch[] = [];
    for (const row of rows) {
      const match = parseGrepLine(row, commit);
      if (match) matches.push(match);
      if (matches.length > max_results) break;
    }
    const truncated = cut || matches.length > max_results;
    const page = matches.slice(0, max_results);
    const files = [...new Set(page.map((m) => m.path))].slice(0, 50);
    const at = commit ?? 'HEAD';
    return ctx.result(
      { repository: repo.root, ref: ref ?? null, matches: page, truncated },
      commit ? files.map((f) => fileLink(ctx, repo, at, f)) : [],
    );
  },
});
