import { describe, it } from 'vitest';
import { expectDocsTable } from '@mcp-reference/test-harness';
import { createSqliteServer } from './server.js';

describe('README', () => {
  it('has the tool/resource/prompt tables generated from the definitions', async () => {
    expectDocsTable(new URL('../README.md', import.meta.url), await createSqliteServer({ dbPath: 'unused.db', write: true }).describe());
  });
});
