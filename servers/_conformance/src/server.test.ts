import { describe, it, expect } from 'vitest';
import { connectInMemory } from '@mcp-reference/shared/client';
import { createConformanceServer } from './server.js';

describe.each(['legacy', 'modern'] as const)('conformance fixture (%s)', (era) => {
  it('serves the suite fixture tools, resources and prompts', async () => {
    const connection = await connectInMemory(createConformanceServer(), { era });
    try {
      const text = await connection.client.callTool({ name: 'test_simple_text', arguments: {} });
      expect(text.content).toEqual([{ type: 'text', text: 'This is a simple text response for testing.' }]);
      const read = await connection.client.readResource({ uri: 'test://template/42/data' });
      expect(JSON.parse(String((read.contents[0] as { text: string }).text))).toMatchObject({ id: '42', templateTest: true });
      const prompt = await connection.client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } });
      expect(prompt.messages[0].content).toEqual({ type: 'text', text: "Prompt with arguments: arg1='a', arg2='b'" });
      const failed = await connection.client.callTool({ name: 'test_error_handling', arguments: {} });
      expect(failed.isError).toBe(true);
    } finally {
      await connection.close();
    }
  });
});
