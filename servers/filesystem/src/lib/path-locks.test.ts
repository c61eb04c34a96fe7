import { describe, expect, it } from 'vitest';
import { createPathLocks } from './path-locks.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('createPathLocks', () => {
  it('runs tasks for one key one at a time, in order, and forgets the key afterwards', async () => {
    const locks = createPathLocks();
    const log: string[] = [];
    let running = 0;
    const task = (name: string) => async () => {
      running++;
      expect(running).toBe(1);
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      running--;
      return name;
    };
    const results = await Promise.all(['a', 'b', 'c'].map((name) => locks.run('/f', task(name))));
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(locks.size()).toBe(0);
  });

  it('lets tasks for other keys run at the same time, and a failed task release the key', async () => {
    const locks = createPathLocks();
    let concurrent = 0;
    let most = 0;
    const task = async () => {
      most = Math.max(most, ++concurrent);
      await tick();
      concurrent--;
    };
    await Promise.all([locks.run('/a', task), locks.run('/b', task)]);
    expect(most).toBe(2);
    await expect(locks.run('/a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(locks.run('/a', async () => 'after')).resolves.toBe('after');
    expect(locks.size()).toBe(0);
  });
});
