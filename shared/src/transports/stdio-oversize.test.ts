import { describe, expect, it } from 'vitest';
import { oversizeId } from './stdio-transport.js';

describe('oversizeId: the id of a request too large to parse, from its ends', () => {
  const pad = 'p'.repeat(1000);
  it('finds a top-level id at the start, past nested ids', () => {
    expect(oversizeId(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"pad":"${pad}`, '"}}')).toBe(7);
    expect(oversizeId(`{"params":{"id":1},"id":"abc","pad":"${pad}`, '"}')).toBe('abc');
  });
  it('finds it as the last key (where SDK clients put it)', () => {
    expect(oversizeId(`{"method":"tools/call","params":{"arguments":{"query":"${pad}`, `${pad}"}},"jsonrpc":"2.0","id":42}`)).toBe(42);
    expect(oversizeId(`{"method":"x","params":{"q":"${pad}`, `${pad}"},"id":"r-1"}\r`)).toBe('r-1');
  });
  it('is null when no end shows a top-level id', () => {
    expect(oversizeId(`{"method":"x","params":{"id":3,"q":"${pad}`, `${pad}","id":3}}`)).toBeNull();
    expect(oversizeId(`{"method":"x","params":{"q":"${pad}`, `${pad}\\",\\"id\\":5}"}`)).toBeNull();
  });
});
