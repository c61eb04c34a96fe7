import { z } from 'zod';
import type { AnyObject, BaseContext, ToolDefinition } from '@mcp-reference/shared';
import type { GitContext } from '../context.js';
import type { Repo } from '../lib/repo.js';
import type { RunOptions, RunResult } from '../lib/git-runner.js';
import { uris } from '../lib/uris.js';
import { MAX_COMMIT_FIELD_CHARS } from '../lib/parse.js';
import type { Commit, DiffFile } from '../lib/parse.js';

type Ctx = BaseContext & GitContext;

export const repoPath = z
  .string()
  .describe('Path of the repository (or of a directory inside it); see the repository field of any result for the one used');

export const repository = z.string().describe('The top of the repository that was used (repo_path may be a directory inside it)');

export const commitSchema = z.object({
  commit: z.string(),
  parents: z.array(z.string()),
  author: z.string(),
  author_email: z.string(),
  date: z.string().describe('Author date, ISO 8601'),
  committer: z.string(),
  committer_date: z.string(),
  subject: z.string(),
  truncated_fields: z
    .array(z.enum(['subject', 'author', 'author_email', 'committer']))
    .optional()
    .describe(`Fields longer than ${MAX_COMMIT_FIELD_CHARS} characters, cut (they end in "…"); git_show has the whole message`),
});

export const diffFileSchema = z.object({
  path: z.string(),
  old_path: z.string().nullable(),
  status: z.enum(['added', 'deleted', 'modified', 'renamed', 'copied', 'mode']),
  binary: z.boolean(),
  additions: z.number().int(),
  deletions: z.number().int(),
  hunks: z.array(
    z.object({ header: z.string(), old_start: z.number().int(), old_lines: z.number().int(), new_start: z.number().int(), new_lines: z.number().int() }),
  ),
});

export const diffOutput = z.object({
  repository,
  diff: z.string().describe('The unified diff text (cut at the output limit)'),
  truncated: z.boolean().describe('True when the diff was longer than the output limit: narrow it with path'),
  files: z.array(diffFileSchema),
});

export const contextLines = z.number().int().min(0).max(10_000).default(3).describe('Lines of context around each change');

/** Git runs in the repository with the session's signal: cancelling the call kills git. */
export function git(ctx: Ctx, repo: Repo, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return ctx.git.run(repo, args, { signal: ctx.signal, ...options });
}

/** Options every diff-producing command gets: no external diff, no textconv, no color. */
export const DIFF_SAFETY = ['--no-ext-diff', '--no-textconv', '--no-color'] as const;

export function commitLink(ctx: Ctx, repo: Repo, commit: Pick<Commit, 'commit' | 'subject'>) {
  return ctx.link(uris.commit(repo.id, commit.commit), {
    name: commit.commit.slice(0, 12),
    title: commit.subject,
    mimeType: 'text/plain',
  });
}

export function branchLink(ctx: Ctx, repo: Repo, name: string) {
  return ctx.link(uris.branch(repo.id, name), { name, title: `branch ${name}`, mimeType: 'text/plain' });
}

export function fileLink(ctx: Ctx, repo: Repo, ref: string, file: string) {
  return ctx.link(uris.file(repo.id, ref, file), { name: file, title: `${file} at ${ref}` });
}

/**
 * Links to the files a diff touches, as they are at `ref`: the old side (HEAD for
 * work-tree diffs) skips added files, the new side skips deleted ones.
 */
export function diffFileLinks(ctx: Ctx, repo: Repo, ref: string, files: readonly DiffFile[], side: 'old' | 'new', limit = 50) {
  return files
    .filter((file) => file.status !== (side === 'old' ? 'added' : 'deleted'))
    .slice(0, limit)
    .map((file) => fileLink(ctx, repo, ref, side === 'old' ? (file.old_path ?? file.path) : file.path));
}

/** Runs a diff-producing command and returns its text (capped) with parsed files. */
export async function runDiff(ctx: Ctx, repo: Repo, args: readonly string[]) {
  const { stdout, truncated } = await git(ctx, repo, args, { maxBytes: ctx.maxOutputBytes });
  const diff = stdout.toString('utf8');
  const { parseDiff } = await import('../lib/parse.js');
  return { diff, truncated, files: parseDiff(diff) };
}

/** Reports progress as output streams in (log, grep, blame). */
export function progressByBytes(ctx: Ctx): (bytes: number) => void {
  let last = 0;
  return (bytes) => {
    if (bytes - last < 256 * 1024) return;
    last = bytes;
    void ctx.progress(bytes, undefined, `${Math.round(bytes / 1024)} KB read`);
  };
}

/**
 * The official server's schema (pydantic `Optional[...] = None`) lets a client send an
 * explicit `null` for an optional field, and some clients do. Here each optional field
 * accepts null too, meaning "not given": the handler gets the arguments read again
 * without the nulls, so defaults apply as if the field were absent.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function acceptNull<T extends ToolDefinition<AnyObject, AnyObject, any>>(tool: T): T {
  const loose: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(tool.input.shape)) {
    const f = field as z.ZodType;
    if (!f.safeParse(undefined).success) loose[key] = f;
    else loose[key] = f.description === undefined ? f.nullable() : f.nullable().describe(f.description);
  }
  return {
    ...tool,
    input: z.object(loose),
    handler: (args: Record<string, unknown>, ctx: Parameters<T['handler']>[1]) =>
      tool.handler(tool.input.parse(Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null))), ctx),
  } as T;
}
