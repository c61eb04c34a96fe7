import type { ServerContext } from '@modelcontextprotocol/server';
import { rendersViews } from '../views.js';
import type { Scope } from './scope.js';
import type { Registry } from '../registry.js';

const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';

/**
 * Whether the client behind a request renders views (MCP Apps): on 2026-07-28 requests
 * from that request's own `clientCapabilities` (each request may come from another
 * client), on 2025 sessions from the capabilities of `initialize`. The UI extension is
 * read as ext-apps' `getUiCapability()` reads it, see `rendersViews`.
 */
export function clientRendersViews(scope: Scope<unknown>, ctx: ServerContext): boolean {
  if (scope.era === 'modern') return rendersViews(ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as never]);
  return rendersViews(scope.sdk.getClientCapabilities());
}

/** Whether tools/list differs between clients that render views and those that do not. */
export function hasViewTools(registry: Pick<Registry<unknown>, 'appTools' | 'description'>): boolean {
  return registry.appTools.length !== registry.description.tools.length || registry.appTools.some((tool) => '_meta' in tool);
}
