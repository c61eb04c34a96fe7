import { z } from 'zod';
import { defineTool } from '../context.js';
import { GrepRowReader } from '../lib/grep-rows.js';
import { LineChecker, MAX_LINE_BYTES, compileForCheck } from '../lib/grep-check.js';
import { PatternError, translateEre, type TranslatedPattern } from '../lib/ere.js';
import { commitOf, treePath, ArgumentError } from '../lib/validate.js';
import { repoPath, repository, git, fileLink, progressByBytes } from './common.js';

export const gitGrep = defineTool({
  name: 'git_grep',
  title: 'Grep',
  description:
    'Search tracked file contents for a pattern, in the work tree or at a ref. The pattern is literal text unless regex is true ' +
    '(POSIX extended regex as git reads it, matched in linear time; no backreferences). pathspec limits the search to a path (glob allowed, e.g. "src/*.ts"). Stops after max_results matches. ' +
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
    partly_searched: z
      .array(z.object({ path: z.string(), line: z.number().int() }))
      .optional()
      .describe(`Lines longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB that a regex was matched against in their first ${MAX_LINE_BYTES / 1024 / 1024} MiB only`),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) =>
    (out.matches.map((m) => `${m.path}:${m.line}: ${m.text}`).join('\n') + (out.truncated ? '\n[more matches: narrow pathspec or the pattern, or raise max_results]' : '') || 'No matches.') +
    (out.partly_searched?.length ? `\n[searched in their first ${MAX_LINE_BYTES / 1024 / 1024} MiB only: ${out.partly_searched.map((l) => `${l.path}:${l.line}`).join(', ')}]` : ''),
  async handler({ repo_path, pattern, pathspec, ref, regex, ignore_case, max_results }, ctx) {
    // A regex is parsed here with git's rules and matched with RE2 (lib/ere.ts): git's own
    // engine takes quadratic or exponential time on some patterns.
    const regexCheck = regex ? prepareRegex(pattern, ignore_case) : undefined;
    const repo = await ctx.repos.resolve(repo_path);
    const commit = ref === undefined ? undefined : await commitOf(repo, ref, ctx.signal);
    const specs: string[] = [];
    if (pathspec !== undefined) {
      if (pathspec.startsWith(':')) throw new ArgumentError('pathspec magic (":(...)") is not accepted; give a path or a glob.');
      const normal = treePath(pathspec);
      if (normal) specs.push(`:(glob)${normal}`);
    }
    // Read as git writes, each line kept around its match, and stop git once one answer is full.
    const limits = { maxMatches: max_results, maxTextBytes: Math.max(ctx.maxOutputBytes, 64 * 1024) };
    let checker: LineChecker | undefined;
    const wholeLines = {
      maxLineBytes: MAX_LINE_BYTES,
      onLine: (path: string, line: number, bytes: Buffer, start: number, end: number, cut: boolean) => checker!.add(path, line, bytes, start, end, cut),
    };
    // A regex cheap in git's engine is git's to match, as written; any other, RE2's, on the lines
    // git finds holding what every match holds (or on every line).
    const byRe2 = regexCheck?.direct === false ? regexCheck : undefined;
    const rows = new GrepRowReader(commit, limits, byRe2 ? wholeLines : undefined);
    if (byRe2) checker = await LineChecker.open(byRe2.source, byRe2.flags, rows, ctx.signal);
    const prefilter = byRe2 ? byRe2.prefilter ?? { fixed: '' } : regexCheck ? { extended: pattern } : { fixed: pattern };
    const search = ['fixed' in prefilter ? '-F' : '-E', ...(ignore_case ? ['-i'] : []), '-e', 'fixed' in prefilter ? prefilter.fixed : prefilter.extended];
    try {
      await git(
        ctx,
        repo,
        ['grep', '-n', '--column', '--null', '-I', '--full-name', '--no-color', '--no-textconv', ...search, ...(commit ? [commit] : []), '--', ...specs],
        // Streamed on a plain spawn: the pattern may start with "-", which simple-git's argument guard would refuse (git-runner.ts).
        { okCodes: [1], onData: progressByBytes(ctx), onChunk: (chunk, flow) => (checker ? checker.push(chunk, flow) : rows.push(chunk)) },
      );
      await checker?.finish();
    } finally {
      checker?.close();
    }
    const matches = rows.matches;
    const truncated = rows.full;
    const page = matches.slice(0, max_results);
    const files = [...new Set(page.map((m) => m.path))].slice(0, 50);
    const at = commit ?? 'HEAD';
    const partly = checker?.partlySearched;
    return ctx.result(
      { repository: repo.root, ref: ref ?? null, matches: page, truncated, ...(partly?.length ? { partly_searched: partly.slice(0, 100) } : {}) },
      commit ? files.map((f) => fileLink(ctx, repo, at, f)) : [],
    );
  },
});

/**
 * How a regex is matched: by git as written (`direct`), or by RE2 (its source and flags) on the
 * lines git finds with `prefilter`. Refusals as argument errors. A direct pattern never loads
 * or compiles RE2 (about 14 ms on the event loop at a process's first use).
 */
type RegexPlan = { direct: true } | { direct: false; source: string; flags: number; prefilter?: TranslatedPattern['prefilter'] };

function prepareRegex(pattern: string, ignoreCase: boolean): RegexPlan {
  try {
    const { re2, prefilter, direct } = translateEre(pattern);
    if (direct) return { direct };
    const flags = compileForCheck(re2, pattern, ignoreCase);
    // git -i folds ASCII letters only; RE2 folds all: without a sure prefilter, every line is matched.
    const text = prefilter ? ('fixed' in prefilter ? prefilter.fixed : prefilter.extended) : '';
    const sure = !(ignoreCase && /[^\x00-\x7f]/.test(text));
    return { direct, source: re2, flags, prefilter: sure ? prefilter : undefined };
  } catch (error) {
    if (error instanceof PatternError) throw new ArgumentError(error.message);
    throw error;
  }
}
