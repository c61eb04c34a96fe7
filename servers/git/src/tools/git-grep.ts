import { z } from 'zod';
import { defineTool } from '../context.js';
import { GrepRowReader } from '../lib/grep-rows.js';
import { backreferenceIn, commitOf, treePath, ArgumentError } from '../lib/validate.js';
import { repoPath, repository, git, fileLink, progressByBytes } from './common.js';

export const gitGrep = defineTool({
  name: 'git_grep',
  title: 'Grep',
  description:
    'Search tracked file contents for a pattern, in the work tree or at a ref. The pattern is literal text unless regex is true ' +
    '(POSIX extended regex, without backreferences). pathspec limits the search to a path (glob allowed, e.g. "src/*.ts"). Stops after max_results matches. ' +
    'A line longer than 1 KB is given as the 1 KB around its first match, cut ends marked with "…".',
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
    truncated: z.boolean().describe('True when more matches follow than this answer holds (max_results, or --max-output-bytes of line text)'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) => out.matches.map((m) => `${m.path}:${m.line}: ${m.text}`).join('\n') + (out.truncated ? '\n[more matches: narrow pathspec or the pattern, or raise max_results]' : '') || 'No matches.',
  async handler({ repo_path, pattern, pathspec, ref, regex, ignore_case, max_results }, ctx) {
    const backreference = regex ? backreferenceIn(pattern) : undefined;
    if (backreference !== undefined) {
      throw new ArgumentError(
        `The pattern uses a backreference ("${backreference}"), which git's regex engine can take exponential time to match: it is not accepted. ` +
          'Search for the pattern without it and read the matches.',
      );
    }
    const repo = await ctx.repos.resolve(repo_path);
    const commit = ref === undefined ? undefined : await commitOf(repo, ref, ctx.signal);
    const specs: string[] = [];
    if (pathspec !== undefined) {
      if (pathspec.startsWith(':')) throw new ArgumentError('pathspec magic (":(...)") is not accepted; give a path or a glob.');
      const normal = treePath(pathspec);
      if (normal) specs.push(`:(glob)${normal}`);
    }
    // Read as git writes, each line kept around its match, and stop git once one answer is full.
    const rows = new GrepRowReader(commit, { maxMatches: max_results, maxTextBytes: Math.max(ctx.maxOutputBytes, 64 * 1024) });
    await git(
      ctx,
      repo,
      [
        'grep', '-n', '--column', '--null', '-I', '--full-name', '--no-color', '--no-textconv',
        regex ? '-E' : '-F', ...(ignore_case ? ['-i'] : []),
        '-e', pattern, ...(commit ? [commit] : []), '--', ...specs,
      ],
      // Streamed on a plain spawn: the pattern may start with "-", which simple-git's argument guard would refuse (git-runner.ts).
      { okCodes: [1], onData: progressByBytes(ctx), onChunk: (chunk) => rows.push(chunk) },
    );
    const matches = rows.matches;
    const truncated = rows.full;
    const page = matches.slice(0, max_results);
    const files = [...new Set(page.map((m) => m.path))].slice(0, 50);
    const at = commit ?? 'HEAD';
    return ctx.result(
      { repository: repo.root, ref: ref ?? null, matches: page, truncated },
      commit ? files.map((f) => fileLink(ctx, repo, at, f)) : [],
    );
  },
});
