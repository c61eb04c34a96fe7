import { z } from 'zod';
import { itemsAfter, type AnyObject, type BaseContext, type ToolDefinition } from '@mcp-reference/shared';
import type { GitContext } from '../context.js';
import type { Repo } from '../lib/repo.js';
import type { RunOptions, RunResult } from '../lib/git-runner.js';
import { uris } from '../lib/uris.js';
import { MAX_COMMIT_FIELD_CHARS, parseDiff } from '../lib/parse.js';
import { TextSlicer } from '../lib/text-slice.js';
import type { Commit, DiffFile } from '../lib/parse.js';
import { ArgumentError } from '../lib/validate.js';

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
  diff: z.string().describe('The unified diff text, or its piece from start_byte; cut at the output limit, at a line end'),
  truncated: z.boolean().describe('True when the diff goes on past this piece: read on with start_byte = next_byte, or narrow it with path'),
  next_byte: z
    .number()
    .int()
    .optional()
    .describe('Set when the diff was cut: pass it as start_byte to read on, byte for byte (the same diff, while the work tree and refs are unchanged)'),
  files: z.array(diffFileSchema).describe('The files whose headers are in this piece'),
});

/** The diff tools' input for reading on in a diff that was cut. */
export const startByte = z
  .number()
  .int()
  .min(0)
  .optional()
  .describe(
    'Byte offset to read on from in a diff that was cut (its next_byte): the same diff from there, up to the output limit. ' +
      'An offset where no piece can have ended (the work tree changed since, most often) is refused: read again from the start',
  );

/** What the diff tools say after a piece that was cut; `byPath` when the tool takes a path to narrow it (git_show does not). */
export function diffCutNote(out: { truncated: boolean; next_byte?: number }, byPath = true): string {
  return out.truncated ? `\n[diff truncated: read on with start_byte ${out.next_byte}${byPath ? ', or narrow it with path' : ''}]` : '';
}

/**
 * Refs in one answer of git_branch and git_tag (about 0.6 MB of branches); more come in
 * pages. Unpaged, 60,000 branches made a result of 13.3 MB, over what a response may
 * carry, with no way to ask for less.
 */
export const REFS_PAGE = 2_000;

export const refsCursor = z.string().optional().describe('nextCursor from the previous call');

/**
 * The refs after the one a page ended at (its full name, `key`), in the order git listed
 * them. When that ref is gone (deleted between the calls), branches go on in git's order
 * of names (byte order, as for-each-ref sorts by refname); tags, in version order, cannot
 * tell where a deleted tag stood, so the call is refused.
 */
export function refsAfter<T extends { ref: string }>(list: readonly T[], key: string, order: 'refname' | 'version'): T[] {
  return itemsAfter(list, key, (item) => item.ref, (gone) => {
    if (order === 'version') throw new ArgumentError(`${gone} (where the previous page ended) is gone: call again without cursor to start over.`);
    const at = Buffer.from(gone);
    return (item) => Buffer.compare(Buffer.from(item.ref), at) > 0;
  });
}

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

/**
 * Runs a diff-producing command, streamed: the piece of its output from `start_byte` (0 when
 * absent), at most the output limit, cut at a line end (or where no character is split), with
 * the files whose headers are in it; git is stopped once the piece is read. `trimStart` drops
 * the blank lines git writes before a commit's patch (`git show --format=`), from the first
 * piece only, so that offsets stay those of git's output.
 */
export async function runDiff(ctx: Ctx, repo: Repo, args: readonly string[], start_byte = 0, trimStart = false) {
  const slicer = new TextSlicer({ start_byte, maxBytes: ctx.maxOutputBytes }, { name: 'the diff', detectBinary: false, onlyPieceEnds: true });
  await git(ctx, repo, args, { onData: progressByBytes(ctx), onChunk: (chunk) => slicer.push(chunk) });
  const piece = slicer.finish(undefined);
  const diff = trimStart && start_byte === 0 ? piece.content.replace(/^\n+/, '') : piece.content;
  return { diff, truncated: piece.truncated, ...(piece.next_byte === undefined ? {} : { next_byte: piece.next_byte }), files: parseDiff(diff) };
}

/** Reports progress as output streams in (grep, blame, diffs, a file streamed): the runner's `onData`. */
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
