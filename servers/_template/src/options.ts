import { z } from 'zod';

/** The server's own flags; the common ones (--http, --port, --log-level...) come from the base. */
export const templateOptions = z.object({
  dirs: z
    .array(z.string().min(1))
    .length(1, 'give exactly one notes directory')
    .describe('The directory that holds the notes (*.md)'),
  readOnly: z.boolean().default(false).describe('Remove the tools that write notes'),
});

export type TemplateOptions = z.output<typeof templateOptions>;
