import { describe, expect, it } from 'vitest';
import { isWorkRequest, leanStartFlags } from './lean-start.js';

describe('leanStartFlags', () => {
  it('holds TurboFan and the young generation back, and gives V8 its defaults back after', () => {
    expect(leanStartFlags([], '')).toEqual({
      hold: ['--no-turbofan', '--semi-space-growth-factor=1'],
      restore: ['--turbofan', '--semi-space-growth-factor=2'],
    });
    // Other flags are no reason to leave it: --trace-opt is how the process-lifecycle test watches.
    expect(leanStartFlags(['--trace-opt', '--enable-source-maps'], '--max-old-space-size=512').hold).toHaveLength(2);
  });

  it('holds Maglev back too where V8 was built with it (Node 24 on), unless the person set it', () => {
    expect(leanStartFlags([], '', true)).toEqual({
      hold: ['--no-turbofan', '--no-maglev', '--semi-space-growth-factor=1'],
      restore: ['--turbofan', '--maglev', '--semi-space-growth-factor=2'],
    });
    expect(leanStartFlags(['--no-maglev'], '', true).hold).toEqual(['--no-turbofan', '--semi-space-growth-factor=1']);
    expect(leanStartFlags([], '--jitless', true).hold).toEqual([]);
  });

  it('leaves alone what the person set, in node arguments or NODE_OPTIONS, with _ or -', () => {
    expect(leanStartFlags(['--no-opt'], '')).toEqual({ hold: ['--semi-space-growth-factor=1'], restore: ['--semi-space-growth-factor=2'] });
    expect(leanStartFlags([], '--turbofan').hold).toEqual(['--semi-space-growth-factor=1']);
    expect(leanStartFlags([], ' --max_semi_space_size=64  ')).toEqual({ hold: ['--no-turbofan'], restore: ['--turbofan'] });
    expect(leanStartFlags(['--semi-space-growth-factor=4'], '').hold).toEqual(['--no-turbofan']);
    expect(leanStartFlags(['--max-heap-size=100', '--opt'], '')).toEqual({ hold: [], restore: [] });
    expect(leanStartFlags([], '--jitless')).toEqual({ hold: [], restore: [] });
  });
});

describe('isWorkRequest', () => {
  it('counts calls, reads, prompts and completions as work, the lists and logging/setLevel not', () => {
    for (const method of ['tools/call', 'resources/read', 'resources/subscribe', 'prompts/get', 'completion/complete']) expect(isWorkRequest(method), method).toBe(true);
    for (const method of ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list', 'logging/setLevel']) expect(isWorkRequest(method), method).toBe(false);
  });
});
