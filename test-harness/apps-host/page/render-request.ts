import type { McpUiResourceCsp, McpUiResourcePermissions, McpUiTheme } from '@modelcontextprotocol/ext-apps';

/** What the test asks the host page to render. */
export interface RenderRequest {
  proxyUrl: string;
  html: string;
  csp?: McpUiResourceCsp;
  permissions?: McpUiResourcePermissions;
  toolArguments: Record<string, unknown>;
  toolResult: Record<string, unknown>;
  /** Visibility of each tool of the server, from tools/list (absent means model and app). */
  visibility: Record<string, string[] | undefined>;
  theme: McpUiTheme;
  width: number;
}
