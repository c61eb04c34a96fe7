import { definitionsFor } from '@mcp-reference/shared';
import type { PageService } from './lib/page-service.js';

/** What every handler of this server sees besides the base context. */
export interface FetchContext {
  /** Fetches, converts and caches pages, and knows which pages exist as resources. */
  pages: PageService;
}

export const { defineTool, defineResource, defineResourceTemplate, definePrompt } = definitionsFor<FetchContext>();
