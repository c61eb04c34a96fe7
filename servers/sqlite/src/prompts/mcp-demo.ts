import { z } from 'zod';
import { userMessage } from '@mcp-reference/shared';
import { definePrompt } from '../context.js';

// The official server's prompt, kept so that a user who swaps servers finds it.
export const mcpDemo = definePrompt({
  name: 'mcp-demo',
  title: 'SQLite MCP demo',
  description: 'A prompt to seed the database with initial data and demonstrate what you can do with an SQLite MCP Server + Claude',
  args: z.object({ topic: z.string().describe('Topic to seed the database with initial data') }),
  handler({ topic }, ctx) {
    const tools = ctx.write ? 'create_table, write_query, read_query, list_tables, describe_table and append_insight' : 'read_query, list_tables, describe_table and append_insight (the server is read-only: start it with --write to create tables)';
    return {
      description: `Demo template for ${topic}`,
      messages: [
        userMessage(
          `The assistant's goal is to walk the user through an informative demo of the Model Context Protocol (MCP) with this SQLite server, about the topic "${topic}".\n\n` +
            `1. Set the scene: a short, realistic business problem about ${topic} that data can answer, with a few questions to explore.\n` +
            `2. Create and seed tables that hold the data (a handful of tables, a few dozen rows), using the tools ${tools}.\n` +
            '3. Query the data step by step, explaining each query and what it shows; read_query takes bound params.\n' +
            '4. Record each business insight with append_insight; the memo is the resource memo://insights.\n' +
            '5. Finish with a short dashboard-like summary of the insights and what the user could ask next.\n\n' +
            'Keep each step short, and ask the user before moving on.',
        ),
      ],
    };
  },
});
