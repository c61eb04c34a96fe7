import { describe, expect, it } from 'vitest';
import type { ServerContext } from '@modelcontextprotocol/server';
import type { ServerConfig } from '../server.js';
import type { Root } from '../types.js';
import type { InputRound } from './input-required.js';
import { createModernRequests, MAX_ROOT_SET_CHARS } from './modern-requests.js';

describe('the server contexts kept per root set (2026-07-28)', () => {
  // A request whose roots the client has answered: the key is their JSON.
  function requestWith(modern: ReturnType<typeof createModernRequests<{ built: number }>>, roots: Root[]) {
    const ctx = { mcpReq: {} } as unknown as ServerContext;
    const key = JSON.stringify(roots);
    modern.rounds.set(ctx, { rootsKey: () => key, listRoots: () => roots } as unknown as InputRound);
    return modern.forRequest(ctx);
  }

  it('are shared by the requests with the same roots, and bounded by the characters of their keys', () => {
    let built = 0;
    const modern = createModernRequests<{ built: number }>({ name: 't', version: '1', context: () => ({ built: ++built }) } as ServerConfig<{ built: number }>);
    const small = [{ uri: 'file:///srv/a' }];
    const first = requestWith(modern, small);
    expect(requestWith(modern, small).ext).toBe(first.ext);
    expect(requestWith(modern, small).info.rootsVersion).toBe(first.info.rootsVersion);
    // Root sets of 1 MB each (a request body may carry 4 MB): far fewer than 1,000 of them
    // fill the table, which then starts over, so what it holds stays near MAX_ROOT_SET_CHARS.
    const name = 'x'.repeat(1024 * 1024);
    const sets = Math.ceil(MAX_ROOT_SET_CHARS / name.length) + 1;
    for (let i = 0; i < sets; i++) requestWith(modern, [{ uri: `file:///srv/${i}`, name }]);
    const again = requestWith(modern, small);
    expect(again.ext).not.toBe(first.ext);
    expect(again.info.rootsVersion).toBeGreaterThan(first.info.rootsVersion);
  });
});
