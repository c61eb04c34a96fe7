import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UI_EXTENSION_ID, VIEW_MIME_TYPE } from '@mcp-reference/shared';
import { makeTempTree, type TempTree } from '@mcp-reference/test-harness';
import { open, type Session } from './test-support.js';

const APPS = { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [VIEW_MIME_TYPE] } } };

describe('preview view (MCP Apps)', () => {
  let tree: TempTree;
  let outside: TempTree;
  let apps: Session;
  let plain: Session;
  beforeAll(async () => {
    outside = await makeTempTree({ 'secret.txt': 'SECRET\n' });
    tree = await makeTempTree({
      allowed: {
        'long.txt': Array.from({ length: 1234 }, (_, i) => `line ${i + 1}`).join('\n') + '\n',
        escape: { symlink: outside.path('secret.txt') },
      },
    });
    apps = await open({ dirs: [tree.path('allowed')] }, APPS);
    plain = await open({ dirs: [tree.path('allowed')] });
  });
  afterAll(async () => {
    await apps?.close();
    await plain?.close();
    await tree?.cleanup();
    await outside?.cleanup();
  });

  it('read_text_file, read_file and read_media_file name the view; fs_preview_page is listed to Apps clients only', async () => {
    const tools = (await apps.client.listTools()).tools;
    for (const name of ['read_text_file', 'read_file', 'read_media_file']) {
      expect(tools.find((t) => t.name === name)?._meta).toEqual({ ui: { resourceUri: 'ui://filesystem/preview' } });
    }
    expect(tools.find((t) => t.name === 'fs_preview_page')?._meta).toEqual({ ui: { visibility: ['app'] } });
    expect((await plain.client.listTools()).tools.map((t) => t.name)).not.toContain('fs_preview_page');
    const { contents } = await apps.client.readResource({ uri: 'ui://filesystem/preview' });
    expect(contents).toMatchObject([{ mimeType: VIEW_MIME_TYPE }]);
  });

  it('pages 500 lines at a time to the end of the file', async () => {
    const file = tree.path('allowed', 'long.txt');
    const first = await apps.ok('fs_preview_page', { path: file, offset: 0 });
    expect(first).toMatchObject({ offset: 0, lines: 500, next_offset: 500 });
    const last = await apps.ok('fs_preview_page', { path: file, offset: 1000 });
    expect(last).toMatchObject({ lines: 234, next_offset: null });
    expect(last.content.split('\n')[0]).toBe('line 1001');
  });

  it('is held to the same path policy: outside the allowed directory and through a symlink are refused', async () => {
    expect(await apps.refused('fs_preview_page', { path: outside.path('secret.txt'), offset: 0 })).not.toContain('SECRET');
    expect(await apps.refused('fs_preview_page', { path: tree.path('allowed', 'escape'), offset: 0 })).not.toContain('SECRET');
  });
});
