import { describe, expect, it } from 'vitest';
import { isTextMime, mimeTypeOf } from './mime.js';

describe('mimeTypeOf', () => {
  it('maps the official server\'s media extensions, case-insensitively', () => {
    expect(mimeTypeOf('/a/photo.JPG')).toBe('image/jpeg');
    expect(mimeTypeOf('song.flac')).toBe('audio/flac');
    expect(mimeTypeOf('icon.svg')).toBe('image/svg+xml');
  });

  it('maps common text and document types and falls back to octet-stream', () => {
    expect(mimeTypeOf('data.json')).toBe('application/json');
    expect(mimeTypeOf('doc.pdf')).toBe('application/pdf');
    expect(mimeTypeOf('Makefile')).toBe('application/octet-stream');
  });
});

describe('isTextMime', () => {
  it('tells text types from binary ones', () => {
    expect(isTextMime('text/markdown')).toBe(true);
    expect(isTextMime('application/json; charset=utf-8')).toBe(true);
    expect(isTextMime('application/ld+json')).toBe(true);
    expect(isTextMime('image/svg+xml')).toBe(true);
    expect(isTextMime('image/png')).toBe(false);
    expect(isTextMime('application/pdf')).toBe(false);
    expect(isTextMime('application/octet-stream')).toBe(false);
  });
});
