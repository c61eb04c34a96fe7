// MCP Apps (extension `io.modelcontextprotocol/ui`, spec 2026-01-26): views as
// definitions. Everything the base needs for views lives here, so that the sessions of
// either SDK era call it from a few lines: the `_meta.ui` of tools/list, whether a client
// renders views, which tools it is shown, the `resources/read` answer of a view, and the
// sealed handles that app-only tools take back from a view.
import { ToolError, resourceNotFound } from './errors.js';
import { decodeCursor, encodeCursor } from './pagination.js';
import { nodeCrypto } from './lazy-builtins.js';

export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui';
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

export type ViewUri = `ui://${string}`;
export type Visibility = 'model' | 'app';

/** Origins a view may reach; the host's CSP is `default-src 'none'` plus these. */
export interface ViewCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** Browser permissions a view asks the host for (each an empty object when asked). */
export interface ViewPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

export interface ViewDefinition {
  /** `ui://<server>/<name>`. */
  uri: ViewUri;
  title: string;
  description?: string;
  /** The whole self-contained HTML document; loaded on the first `resources/read`. */
  html: () => Promise<string>;
  csp?: ViewCsp;
  permissions?: ViewPermissions;
  prefersBorder?: boolean;
}

const VIEW_URI = /^ui:\/\/[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9-]*$/;

export function defineView(definition: ViewDefinition): ViewDefinition {
  if (!VIEW_URI.test(definition.uri)) {
    throw new Error(`view uri must look like ui://<server>/<name> (lowercase, digits, -), got ${definition.uri}`);
  }
  return definition;
}

export const isViewUri = (uri: string): boolean => uri.startsWith('ui://');

/** The client's UI extension settings, read as ext-apps' `getUiCapability()` reads them. */
export function uiCapability(capabilities: unknown): { mimeTypes?: string[] } | undefined {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  const ui = extensions?.[UI_EXTENSION_ID];
  return typeof ui === 'object' && ui !== null ? (ui as { mimeTypes?: string[] }) : undefined;
}

/**
 * Whether a client renders views: it declares the extension with our MIME type. From the
 * `initialize` capabilities on 2025 sessions, from the request's `clientCapabilities` on
 * 2026 requests.
 */
export function rendersViews(capabilities: unknown): boolean {
  const mimeTypes = uiCapability(capabilities)?.mimeTypes;
  return Array.isArray(mimeTypes) && mimeTypes.includes(VIEW_MIME_TYPE);
}

interface ViewLinked {
  name: string;
  view?: ViewUri;
  visibility?: Visibility[];
}

/** A tool the model may see (the default visibility is model and app). */
export const isModelVisible = (tool: ViewLinked): boolean => !tool.visibility || tool.visibility.includes('model');

/**
 * The two tools/list answers, from the tool definitions and their descriptors (same
 * order): `plain` for clients without views (app-only tools left out, no `_meta`, exactly
 * what they got before views existed) and `apps` with `_meta.ui` on the tools that have a
 * view or a visibility. Only `_meta.ui` is written, not the deprecated `ui/resourceUri`.
 */
export function toolLists<D extends object>(tools: readonly ViewLinked[], descriptors: readonly D[]): { plain: D[]; apps: D[] } {
  const plain: D[] = [];
  const apps: D[] = [];
  tools.forEach((tool, index) => {
    const descriptor = descriptors[index];
    if (isModelVisible(tool)) plain.push(descriptor);
    const ui = {
      ...(tool.view ? { resourceUri: tool.view } : {}),
      ...(tool.visibility ? { visibility: tool.visibility } : {}),
    };
    apps.push(Object.keys(ui).length ? { ...descriptor, _meta: { ui } } : descriptor);
  });
  return { plain, apps };
}

/** Indexes views by URI; a duplicate URI is a programming error. */
export function indexViews(views: readonly ViewDefinition[]): Map<string, ViewDefinition> {
  const map = new Map<string, ViewDefinition>();
  for (const view of views) {
    if (map.has(view.uri)) throw new Error(`duplicate view uri: ${view.uri}`);
    map.set(view.uri, view);
  }
  return map;
}

/**
 * The `resources/read` answer for a view: one HTML document with `_meta.ui` on the content
 * item. Views are not in `resources/list` (the spec lets UI-only resources be left out).
 */
export async function readView(views: ReadonlyMap<string, ViewDefinition>, uri: string) {
  const view = views.get(uri);
  if (!view) throw resourceNotFound(uri, `This server's views are ${[...views.keys()].join(', ') || 'none'}.`);
  const ui = {
    ...(view.csp ? { csp: view.csp } : {}),
    ...(view.permissions ? { permissions: view.permissions } : {}),
    ...(view.prefersBorder !== undefined ? { prefersBorder: view.prefersBorder } : {}),
  };
  return { contents: [{ uri: view.uri, mimeType: VIEW_MIME_TYPE, text: await view.html(), _meta: { ui } }] };
}

/** Where a tool result carries the handle of its call, for clients that render views. */
export const VIEW_HANDLE_META = 'io.github.mcp-reference/view-handle';

/** The call a handle stands for: the tool and its validated arguments. */
export interface SealedCall {
  tool: string;
  args: Record<string, unknown>;
}

/**
 * Handles that a view hands back to an app-only tool: the base's cursor encoding of the
 * call, bound to this server by an HMAC. A handle changed by anyone, or minted by another
 * server (another database, say), is refused. The key is random per server unless given,
 * so instances behind one load balancer share it through the server's configuration.
 */
export interface ViewHandles {
  seal(call: SealedCall): string;
  /** The call behind a handle minted for `tool`; a ToolError otherwise. */
  open(handle: string, tool: string): Record<string, unknown>;
}

const HANDLES = 'view-handle';

/**
 * The view-handle key derived from a shared secret (`MCP_REQUEST_STATE_KEY`), so that every
 * instance sharing it opens the others' handles, and from the server's scope (its database
 * file, say), so that a handle minted for another scope is still refused. Derived, not
 * reused: a view handle can never pass for sealed request state, nor the other way round.
 */
export function viewHandleKey(secret: string, scope = ''): Uint8Array {
  return nodeCrypto().createHmac('sha256', secret).update(`${HANDLES}\0${scope}`).digest();
}

export function createViewHandles(key: Uint8Array = nodeCrypto().randomBytes(32)): ViewHandles {
  const mac = (body: string) => nodeCrypto().createHmac('sha256', key).update(body).digest('base64url');
  const refuse = (handle: string, why: string) =>
    new ToolError(`Invalid handle "${handle.slice(0, 40)}": ${why}. Run the tool that showed this view again and use its result.`);
  return {
    seal(call) {
      const body = encodeCursor(HANDLES, { k: JSON.stringify([call.tool, call.args]) });
      return `${body}.${mac(body)}`;
    },
    open(handle, tool) {
      const dot = handle.lastIndexOf('.');
      const body = handle.slice(0, dot);
      const given = Buffer.from(handle.slice(dot + 1));
      const expected = Buffer.from(mac(body));
      if (dot < 0 || given.length !== expected.length || !nodeCrypto().timingSafeEqual(given, expected)) {
        throw refuse(handle, 'it was not minted by this server');
      }
      const [sealedTool, args] = JSON.parse(decodeCursor(HANDLES, body).k ?? 'null') as [string, Record<string, unknown>];
      if (sealedTool !== tool) throw refuse(handle, `it belongs to ${sealedTool}, not ${tool}`);
      return args;
    },
  };
}

/**
 * A tool result as a client that renders views gets it: the handle of the call in
 * `_meta`, so the view can page and sort through app-only tools. Clients without views
 * get the result untouched.
 */
export function withViewHandle<R extends { isError?: boolean; _meta?: unknown }>(result: R, handle: () => string): R {
  if (result.isError) return result;
  const meta = (result._meta ?? {}) as Record<string, unknown>;
  return { ...result, _meta: { ...meta, [VIEW_HANDLE_META]: handle() } };
}
