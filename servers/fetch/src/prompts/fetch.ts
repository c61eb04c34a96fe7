import { z } from 'zod';
import { userMessage } from '@mcp-reference/shared';
import { codePointBoundary } from '@mcp-reference/shared/core';
import { definePrompt } from '../context.js';

/** What a prompt embeds at most; the fetch tool reads the rest. */
const PROMPT_MAX_CHARS = 100_000;

export const fetchPrompt = definePrompt({
  name: 'fetch',
  title: 'Fetch a page',
  description: 'Fetch a URL and put its contents (markdown for web pages) into the conversation.',
  args: z.object({ url: z.string().min(1).describe('The URL to fetch') }),
  complete: { url: (typed, ctx) => ctx.pages.index.complete(typed) },
  async handler({ url }, ctx) {
    // The user named this URL themselves: as in the official server, robots.txt does not
    // apply (the address checks do).
    const page = await ctx.pages.get(url, { manual: true, signal: ctx.signal });
    const content = page.image ? `(an image, ${page.image.mimeType})` : page.content;
    const cut = content.length > PROMPT_MAX_CHARS;
    // Never between the two halves of a character above U+FFFF (an emoji): both pieces decode.
    const end = codePointBoundary(content, PROMPT_MAX_CHARS);
    const text = `Contents of ${url}:\n${cut ? content.slice(0, end) : content}${
      cut ? `\n\n(The page continues; use the fetch tool with start_index ${end} for the rest.)` : ''
    }`;
    return { description: page.title ? `Contents of ${page.title}` : `Contents of ${url}`, messages: [userMessage(text)] };
  },
});
