// The bridge every view uses: ext-apps' App over postMessage, host theming (light and
// dark, the host's CSS variables) and auto-resize through ui/notifications/size-changed.
import { App, applyDocumentTheme, applyHostStyleVariables, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';

/** Where a tool result carries the handle of its call (the base's VIEW_HANDLE_META). */
export const VIEW_HANDLE_META = 'io.github.mcp-reference/view-handle';

export interface ToolResultLike {
  content?: unknown;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

function applyContext(context: McpUiHostContext | undefined): void {
  if (context?.theme) applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
}

export function createApp(name: string): App {
  const app = new App({ name, version: '1.0.0' }, {}, { autoResize: true });
  app.onhostcontextchanged = (context) => applyContext(context);
  app.onteardown = async () => ({});
  return app;
}

export async function start(app: App): Promise<void> {
  await app.connect();
  applyContext(app.getHostContext());
}

/** The text of a tool result's text content, for errors. */
export function textOf(result: ToolResultLike): string {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return content.filter((c) => c.type === 'text').map((c) => c.text ?? '').join('\n');
}
