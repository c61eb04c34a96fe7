import { z } from 'zod';

/** The server's own flags; the common ones (--http, --port, --log-level...) come from the base. */
export const filesystemOptions = z.object({
  dirs: z
    .array(z.string().min(1))
    .default([])
    .describe('Allowed directories: a ceiling that client roots can narrow, never widen'),
  readOnly: z.boolean().default(false).describe('Remove every tool that writes'),
  maxReadBytes: z
    .number()
    .int()
    .min(1024)
    .default(10 * 1024 * 1024)
    .describe('Largest file read whole; larger ones need head, tail or a line range'),
});

export type FilesystemOptions = z.output<typeof filesystemOptions>;
