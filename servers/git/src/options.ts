import { z } from 'zod';

/** The server's own flags; the common ones (--http, --port, --log-level...) come from the base. */
export const gitOptions = z.object({
  repository: z
    .array(z.string().min(1))
    .default([])
    .describe('A repository the server may use (repeatable): a ceiling that client roots can narrow, never widen'),
  readOnly: z.boolean().default(false).describe('Remove every tool that changes a repository'),
  maxOutputBytes: z
    .number()
    .int()
    .min(4096)
    .default(1024 * 1024)
    .describe('Most bytes of diff or file text in one result; more is cut and marked truncated'),
});

export type GitOptions = z.output<typeof gitOptions>;
