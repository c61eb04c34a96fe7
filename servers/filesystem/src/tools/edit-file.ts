import { z } from 'zod';
import { defineTool } from '../context.js';
import { applyEditsToBytes } from '../lib/edit.js';
import { readWholeBytes } from '../lib/read-text.js';
import { identityOf, writeFileAtomic } from '../lib/atomic-write.js';
import { fileUri } from '../lib/file-uri.js';
import { shortenDiff } from '../lib/unified-diff.js';

/**
 * Most bytes of diff one answer carries (it travels twice: structuredContent and the
 * text). A longer one is cut, so that an edit that was written never answers with an
 * error: an error means nothing changed, and a retry would then match nothing.
 */
export const MAX_DIFF_BYTES = 2 * 1024 * 1024;

export const editFile = defineTool({
  name: 'edit_file',
  title: 'Edit File',
  description:
    'Replace text in a file: each edit swaps oldText for newText, in order. Matching is exact first, then tolerant of indentation and ' +
    'whitespace differences (newText is re-indented to fit). An edit that matches nothing, or more than one place, fails with the reason ' +
    'and nothing is written. Returns a git-style diff; dryRun previews it without writing. Only works within allowed directories.',
  input: z.object({
    path: z.string(),
    edits: z
      .array(
        z.object({
          oldText: z.string().describe('Text to search for: include enough lines to be unique'),
          newText: z.string().describe('Text to replace with'),
        }),
      )
      .describe('Applied in order; none at all is accepted, as in the official server, and changes nothing'),
    dryRun: z.boolean().default(false).describe('Preview changes using git-style diff format'),
  }),
  output: z.object({
    path: z.string(),
    diff: z.string().describe('Unified diff of the change'),
    diffTruncated: z
      .boolean()
      .optional()
      .describe('Set when the diff was too long for one answer and was cut; the edit itself was applied in full (unless dryRun)'),
    dryRun: z.boolean(),
    edits: z.array(z.object({ line: z.number().int(), match: z.enum(['exact', 'whitespace']) })),
  }),
  annotations: { destructiveHint: true, openWorldHint: false },
  render: (out) => {
    // A fence longer than any run of backticks in the diff, so a file holding ``` cannot close it early.
    const longest = Math.max(0, ...(out.diff.match(/`+/g) ?? []).map((run) => run.length));
    const fence = '`'.repeat(Math.max(3, longest + 1));
    return `${fence}diff\n${out.diff}${out.diff.endsWith('\n') || out.diff === '' ? '' : '\n'}${fence}\n${out.dryRun ? '(dry run: nothing written)' : ''}`.trim();
  },
  async handler({ path, edits, dryRun }, ctx) {
    const checked = await ctx.policy.resolveFile(path);
    // One edit of a file at a time in this process: the read, the edit and the rename of
    // two concurrent calls would otherwise interleave and one change would be lost.
    return ctx.locks.run(checked, async () => {
      const { handle, real: file } = await ctx.policy.openFile(checked);
      let original: Buffer;
      let read;
      // The file's bytes, and the edited copy, count against the server's budget of bytes
      // in flight while the edit is worked out (released before the answer is built).
      let release: () => void = () => undefined;
      let result;
      try {
        try {
          const stats = await handle.stat({ bigint: true });
          read = identityOf(stats);
          release = await ctx.readBudget.reserve(2 * Math.min(Number(stats.size), ctx.maxReadBytes));
          original = await readWholeBytes({ handle, label: path }, ctx.maxReadBytes);
        } finally {
          await handle.close();
        }
        result = await applyEditsToBytes(original, edits, {
          path,
          signal: ctx.signal,
          onProgress: (done, total) => void ctx.progress(done, total, 'applying edits'),
        });
      } finally {
        release();
      }
      // Sized before anything is written: the answer to a written edit must fit.
      const shown = fitDiff(
        result.diff,
        dryRun ? 'nothing was written; the whole change is as asked' : 'the file was written in full: read it to see the rest',
      );
      if (!dryRun && result.changed) {
        // Refused (CONFLICT) if another process changed the file since it was read.
        await writeFileAtomic(file, result.content, { confine: ctx.policy.contains, expect: read });
        ctx.recentEdits.add(file, shown.diff);
      }
      const cut = shown.cut ? { diffTruncated: true } : {};
      return ctx.result({ path: file, diff: shown.diff, ...cut, dryRun, edits: result.applied }, [
        ctx.link(fileUri(file), { mimeType: 'text/plain' }),
      ]);
    });
  },
});

/**
 * The diff cut to MAX_DIFF_BYTES, and further if JSON escapes would make it travel larger
 * than that by half (control characters take 6 bytes each in JSON), so that the answer,
 * which carries it twice, stays well inside the result budget.
 */
function fitDiff(diff: string, why: string): { diff: string; cut: boolean } {
  let max = MAX_DIFF_BYTES;
  for (;;) {
    const shown = shortenDiff(diff, max, why);
    const json = Buffer.byteLength(JSON.stringify(shown.diff));
    if (json <= MAX_DIFF_BYTES * 1.5 || max < 1024) return shown;
    max = Math.floor((max * MAX_DIFF_BYTES) / json);
  }
}
