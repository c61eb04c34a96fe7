import { z } from 'zod';

/** The server's own flags; the common ones (--http, --port, --log-level...) come from the base. */
export const fetchOptions = z.object({
  userAgent: z.string().min(1).optional().describe('User-Agent sent with every request (and matched against robots.txt)'),
  ignoreRobotsTxt: z.boolean().default(false).describe('Do not check robots.txt before fetching'),
  proxyUrl: z
    .string()
    .url()
    .refine((value) => /^http:/i.test(value), 'must be an http:// proxy URL')
    .optional()
    .describe('Send every request through this HTTP proxy (CONNECT for https); targets are still checked'),
  allowHost: z
    .array(z.string().min(1))
    .default([])
    .describe('HOST[:PORT] that may be a private or loopback address (repeatable), e.g. 127.0.0.1:8080'),
  page: z
    .array(z.string().url())
    .default([])
    .describe('A URL listed as a resource from the start, fetched when read (repeatable)'),
  timeoutMs: z.number().int().min(100).max(600_000).default(30_000).describe('Time limit of each whole response, in ms'),
  maxBytes: z
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(10 * 1024 * 1024)
    .describe('Largest body read (after decompression); longer bodies are cut and marked truncated'),
  pollIntervalMs: z
    .number()
    .int()
    .min(100)
    .default(60_000)
    .describe('How often a subscribed page is re-checked (conditional request), in ms'),
});

export type FetchOptions = z.output<typeof fetchOptions>;
