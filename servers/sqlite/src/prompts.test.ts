import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteFixture } from '@mcp-reference/test-harness';
import { open, shopDb, type Session } from './test-support.js';

const textOf = (message: { content: unknown }) => (message.content as { text?: string }).text ?? '';

describe('prompts', () => {
  let db: SqliteFixture;
  let s: Session;
  beforeAll(async () => {
    db = await shopDb();
    s = await open({ dbPath: db.file });
  });
  afterAll(async () => {
    await s.close();
    await db.cleanup();
  });

  it('keeps mcp-demo with its topic argument', async () => {
    const prompt = await s.client.getPrompt({ name: 'mcp-demo', arguments: { topic: 'retail' } });
    expect(textOf(prompt.messages[0])).toContain('retail');
    expect(textOf(prompt.messages[0])).toContain('append_insight');
  });

  it('explore_table names the columns and links the table; an unknown table is refused', async () => {
    const prompt = await s.client.getPrompt({ name: 'explore_table', arguments: { table: 'users', column: 'email' } });
    expect(textOf(prompt.messages[0])).toContain('id INTEGER, name TEXT, email TEXT');
    expect(prompt.messages[1].content).toMatchObject({ type: 'resource_link', uri: 'sqlite://table/users' });
    await expect(s.client.getPrompt({ name: 'explore_table', arguments: { table: 'nope' } })).rejects.toThrow(/no table/);
  });

  it('answer_question embeds the chosen tables and completes the last name of the list', async () => {
    const prompt = await s.client.getPrompt({ name: 'answer_question', arguments: { question: 'who buys most?', tables: 'users, orders' } });
    expect(textOf(prompt.messages[0])).toContain('CREATE TABLE orders');
    const done = await s.client.complete({ ref: { type: 'ref/prompt', name: 'answer_question' }, argument: { name: 'tables', value: 'users, or' } });
    expect(done.completion.values).toEqual(['users, orders']);
  });

  it('explain_plan embeds the plan', async () => {
    const prompt = await s.client.getPrompt({ name: 'explain_plan', arguments: { query: 'SELECT * FROM orders WHERE user_id = 1' } });
    expect(textOf(prompt.messages[0])).toMatch(/QUERY PLAN\n`--SEARCH orders USING/);
  });
});
