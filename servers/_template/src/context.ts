import { definitionsFor } from '@mcp-reference/shared';

/** What every handler of this server sees besides the base context. */
export interface NotesContext {
  /** The notes directory, absolute. */
  dir: string;
}

export const { defineTool, defineResource, defineResourceTemplate, definePrompt } = definitionsFor<NotesContext>();
