// The host page (modelled on ext-apps' examples/basic-host): an AppBridge over
// PostMessageTransport to the sandbox proxy on the second origin. The MCP client lives in
// the test process: `mcpCallTool` is exposed to this page by the test, which forwards it to
// the real server. The bridge refuses a view's call to any tool whose visibility lacks "app".
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { McpUiTheme } from '@modelcontextprotocol/ext-apps';
import type { RenderRequest } from './render-request.js';


interface Probe {
  kind: string;
  ms?: number;
  directive?: string;
  blocked?: string;
}

declare global {
  interface Window {
    mcpCallTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<Record<string, unknown>>;
    render(request: RenderRequest): Promise<{ paintMs: number }>;
    setTheme(theme: McpUiTheme): void;
    probes: Probe[];
    refusedCalls: string[];
    toolCalls: { name: string; arguments?: Record<string, unknown> }[];
  }
}

window.probes = [];
window.refusedCalls = [];
window.toolCalls = [];
let bridge: AppBridge | undefined;

window.addEventListener('message', (event) => {
  const data = event.data as { method?: string; params?: Probe };
  if (data?.method === 'x-probe' && data.params) window.probes.push(data.params);
});

window.setTheme = (theme) => bridge?.setHostContext({ theme });

window.render = async (request) => {
  const frame = document.createElement('iframe');
  frame.id = 'view';
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
  // Permissions reach the view only if every frame on the way delegates them.
  if (request.permissions?.clipboardWrite) frame.setAttribute('allow', 'clipboard-write');
  frame.style.cssText = `width:${request.width}px;height:120px;border:0;display:block`;
  document.body.replaceChildren(frame);
  bridge = new AppBridge(
    null,
    { name: 'mcp-reference-apps-host', version: '1.0.0' },
    { serverTools: {}, logging: {}, openLinks: {} },
    { hostContext: { theme: request.theme, displayMode: 'inline', containerDimensions: { maxHeight: 2000, width: request.width } } },
  );
  const current = bridge;
  current.oncalltool = async (params) => {
    const visibility = request.visibility[params.name] ?? ['model', 'app'];
    if (!(params.name in request.visibility) || !visibility.includes('app')) {
      window.refusedCalls.push(params.name);
      throw new Error(`Tool ${params.name} is not available to apps`);
    }
    window.toolCalls.push(params);
    return (await window.mcpCallTool(params)) as never;
  };
  current.onsizechange = ({ height }) => {
    if (height !== undefined) frame.style.height = `${Math.ceil(height)}px`;
  };
  current.onopenlink = async () => ({ isError: true });
  current.onmessage = async () => ({ isError: true });
  current.onloggingmessage = () => undefined;
  const painted = new Promise<number>((resolve) => {
    const check = () => {
      const probe = window.probes.find((p) => p.kind === 'painted');
      if (probe) resolve(probe.ms ?? -1);
      else setTimeout(check, 5);
    };
    check();
  });
  current.onsandboxready = () => {
    void current.sendSandboxResourceReady({ html: request.html, csp: request.csp, permissions: request.permissions });
  };
  current.oninitialized = () => {
    void current.sendToolInput({ arguments: request.toolArguments });
    void current.sendToolResult(request.toolResult as never);
  };
  frame.src = request.proxyUrl;
  await current.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  return { paintMs: await painted };
};
