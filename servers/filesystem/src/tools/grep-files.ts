import { z } from 'zod';
import { defineTool } from '../context.js';
import { grepFiles as grep } from '../lib/grep.js';
import { fileUri } from '../lib/file-uri.js';
import { displayName } from '../lib/display-name.js';
import { throttledProgress } from './progress.js';
import { reportSkippedFiles } from './report-skipped.js';
import { escapeNotes } from './glob-notes.js';

export const grepFiles = defineTool({
  name: 'grep_files',
  title: 'Search File Contents',
  description:
    'Search the contents of files under `path` (or one file) for a regular expression (RE2 syntax, matched in linear time), or plain text with literal: true. ' +
    'Returns matching lines with line numbers and optional context, in path order. include/exclude take globs (by name, or by path when they contain "/"). ' +
    'Overlapping context is merged as grep -C merges it. Stops at max_results or when the result reaches about 4 MB (truncatedBy says which: narrow the search to see the rest). ' +
    'Binary files are skipped; .gitignore is respected unless respect_gitignore is false. Only searches within allowed directories.',
  input: z.object({
    pattern: z
      .string()
      .min(1)
      .describe('Regular expression in RE2 syntax: JavaScript\'s, without backreferences or lookaround (or plain text with literal: true)'),
    path: z.string().describe('Directory (searched recursively) or file'),
    literal: z.boolean().default(false).describe('Treat pattern as plain text'),
    case_sensitive: z.boolean().default(true),
    include: z.array(z.string()).optional().describe("Only files matching these globs, e.g. ['*.ts']"),
    exclude: z.array(z.string()).optional().describe("Leave out these globs, e.g. ['node_modules', '*.min.js']"),
    context_lines: z.number().int().min(0).max(20).default(0).describe('Lines of context before and after each match'),
    max_results: z.number().int().min(1).max(100_000).default(200).describe('Stop after this many matching lines'),
    respect_gitignore: z.boolean().default(true),
  }),
  output: z.object({
    matches: z.array(
      z.object({
        path: z.string(),
        line: z.number().int(),
        column: z.number().int(),
        text: z.string(),
        before: z.array(z.string()).optional(),
        after: z.array(z.string()).optional(),
      }),
    ),
    truncated: z.boolean().describe('The search stopped early: more matches may exist'),
    truncatedBy: z
      .enum(['max_results', 'output_size'])
      .optional()
      .describe('Why it stopped: max_results reached, or the matches reached the output size limit'),
    filesScanned: z.number().int(),
    filesMatched: z.number().int(),
    skipped: z.object({ binary: z.number().int(), tooLarge: z.array(z.string()), unreadable: z.array(z.string()) }),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  whenTooLarge: 'Lower max_results or context_lines, add include globs, or search a narrower path.',
  render: (out) => {
    if (out.matches.length === 0) return `No matches (${out.filesScanned} files searched).`;
    // As grep -C prints: each line once, "--" only between groups that do not touch.
    const withContext = out.matches.some((m) => m.before?.length || m.after?.length);
    let text = '';
    let previous: { path: string; last: number } | undefined;
    for (const m of out.matches) {
      const before = m.before ?? [];
      const after = m.after ?? [];
      const first = m.line - before.length;
      const name = displayName(m.path);
      if (previous) text += withContext && (previous.path !== m.path || previous.last + 1 < first) ? '\n--\n' : '\n';
      text += [
        ...before.map((line, i) => `${name}-${first + i}-${line}`),
        `${name}:${m.line}:${m.text}`,
        ...after.map((line, i) => `${name}-${m.line + 1 + i}-${line}`),
      ].join('\n');
      previous = { path: m.path, last: m.line + after.length };
    }
    if (out.truncatedBy === 'output_size') {
      text += `\n(stopped at ${out.matches.length} matches: the result reached its size limit; narrow path or include, or lower context_lines)`;
    } else if (out.truncated) {
      text += `\n(stopped at ${out.matches.length} matches: raise max_results or narrow the search)`;
    }
    return text;
  },
  async handler(args, ctx) {
    const root = await ctx.policy.resolveReadable(args.path);
    const boundary = await ctx.policy.rootOf(root);
    const globOptions = ctx.globs.forRoot(boundary ?? root);
    const result = await grep(root, {
      globOptions,
      pattern: args.pattern,
      literal: args.literal,
      caseSensitive: args.case_sensitive,
      include: args.include,
      exclude: args.exclude,
      contextLines: args.context_lines,
      maxResults: args.max_results,
      respectGitignore: args.respect_gitignore,
      gitignoreBoundary: boundary,
      onIgnoreFileSkipped: reportSkippedFiles(ctx),
      allowed: await ctx.policy.allowed(),
      signal: ctx.signal,
      onProgress: throttledProgress(ctx, 'grep_files'),
    });
    const matches = result.matches.map(({ path, line, column, text, before, after }) => ({
      path,
      line,
      column,
      text,
      ...(before.length ? { before } : {}),
      ...(after.length ? { after } : {}),
    }));
    const files = [...new Set(result.matches.map((m) => m.path))];
    return ctx.result(
      {
        matches,
        truncated: result.truncated,
        ...(result.truncatedBy ? { truncatedBy: result.truncatedBy } : {}),
        filesScanned: result.filesScanned, filesMatched: result.filesMatched, skipped: result.skipped },
      [
        ...files.slice(0, 100).map((file) => ctx.link(fileUri(file))),
        ...escapeNotes([...(result.filesMatched === 0 ? (args.include ?? []) : []), ...(args.exclude ?? [])], globOptions),
      ],
    );
  },
});
