import { describe, expect, it } from 'vitest';
import { findTable, type Schema } from './schema.js';

describe('findTable', () => {
  const schema: Schema = {
    tables: Array.from({ length: 20_000 }, (_, i) => ({ name: `t${i}`, type: 'table' as const, columns: [], sql: null }) as unknown as Schema['tables'][number]),
    indexes: [],
    triggers: [],
  };

  it('finds a table by its name, or by its name in another case', () => {
    expect(findTable(schema, 't19999').name).toBe('t19999');
    expect(findTable(schema, 'T42').name).toBe('t42');
  });

  it('refuses a 2 MB name at once, naming 200 characters of it', { timeout: 10_000 }, () => {
    // The name was lowered once a table: 20,000 times 2 MB, 40 s of the event loop, and the
    // refusal quoted all of it.
    const name = 'x'.repeat(2_000_000);
    let message = '';
    try {
      findTable(schema, name);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^There is no table or view named "x{200}…"\. Known: t0, t1/);
    expect(message.length).toBeLessThan(1_000);
  });
});
