import { describe, expect, it } from 'vitest';
import { formatSize } from './format-size.js';

describe('formatSize', () => {
  it('renders sizes exactly as the official server does', () => {
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(1536)).toBe('1.50 KB');
    expect(formatSize(12 * 1024 * 1024)).toBe('12.00 MB');
    expect(formatSize(3 * 1024 ** 5)).toBe('3072.00 TB');
  });
});
