import { z } from 'zod';
import { defineTool } from '../context.js';
import { applyEdits } from '../lib/edit.js';
import { readWhole } from '../lib/read-text.js';
import { writeFileAtomic } from '../lib/atomic-write.js';
import { fileUri } from '../lib/file-uri.js';

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
      .min(1),
    dryRun: z.boolean().default(false).describe('Preview changes using git-style diff format'),
  }),
  output: z.object({
    path: z.string(),
    diff: z.string().describe('Unified diff of the change'),
    dryRun: z.boolean(),
    edits: z.array(z.object({ line: z.number().int(), match: z.enum(['exact', 'whitespace']) })),
  }),
  annotations: { destructiveHint: true, openWorldHint: false },
  render: (out) => `${'`'.repeat(3)}diff\n${out.diff}${'`'.repeat(3)}\n${out.dryRun ? '(dry run: nothing written)' : ''}`.trim(),
  async handler({ path, edits, dryRun }, ctx) {
    const file = await ctx.policy.resolveFile(path);
    const original = await readWhole(file, ctx.maxReadBytes);
    const result = applyEdits(original, edits, { path });
    if (!dryRun && result.content !== original) {
      await writeFileAtomic(file, result.content);
      ctx.recentEdits.add(file, result.diff);
    }
    return ctx.result({ path: file, diff: result.diff, dryRun, edits: result.applied }, [
      ctx.link(fileUri(file), { mimeType: 'text/plain' }),
    ]);
  },
});
