// The sandbox proxy, served from a second loopback origin (as basic-host serves it on
// 8081): it builds the CSP from the view's _meta.ui.csp (the spec's default when absent),
// loads the view into an inner `sandbox="allow-scripts"` srcdoc iframe (an opaque origin)
// and relays messages between the host and the view.
import type { McpUiResourceCsp, McpUiResourcePermissions } from '@modelcontextprotocol/ext-apps';

const host = new URL(document.referrer).origin;
let inner: HTMLIFrameElement | undefined;

/** The spec's CSP for a view: default-src 'none' plus what `csp` declares, nothing looser. */
export function buildCsp(csp: McpUiResourceCsp | undefined): string {
  const extra = (domains: string[] | undefined) => (domains?.length ? ` ${domains.join(' ')}` : '');
  const resources = extra(csp?.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline'${resources}`,
    `style-src 'self' 'unsafe-inline'${resources}`,
    `img-src 'self' data:${resources}`,
    `font-src 'self'${resources}`,
    `media-src 'self' data:${resources}`,
    `connect-src ${csp?.connectDomains?.length ? csp.connectDomains.join(' ') : "'none'"}`,
    `frame-src ${csp?.frameDomains?.length ? csp.frameDomains.join(' ') : "'none'"}`,
    `base-uri ${csp?.baseUriDomains?.length ? csp.baseUriDomains.join(' ') : "'self'"}`,
  ].join('; ');
}

// Test instrumentation only: reports CSP violations and the first paint after a tool
// result to the host. It runs before the view's own script, in the view's document.
const PROBE = `<script>(function(){
  var post = function (m) { parent.postMessage({ jsonrpc: '2.0', method: 'x-probe', params: m }, '*'); };
  addEventListener('securitypolicyviolation', function (e) { post({ kind: 'csp', directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample }); });
  var t = 0;
  addEventListener('message', function (e) {
    if (!e.data || e.data.method !== 'ui/notifications/tool-result') return;
    t = performance.now();
    var seen = false;
    new MutationObserver(function (records, observer) {
      if (seen) return; seen = true; observer.disconnect();
      requestAnimationFrame(function () { setTimeout(function () { post({ kind: 'painted', ms: performance.now() - t }); }, 0); });
    }).observe(document, { subtree: true, childList: true, characterData: true });
  }, true);
})();</script>`;

function load(html: string, csp: McpUiResourceCsp | undefined, permissions: McpUiResourcePermissions | undefined): void {
  inner?.remove();
  inner = document.createElement('iframe');
  inner.setAttribute('sandbox', 'allow-scripts');
  inner.style.cssText = 'width:100%;height:100%;border:0;display:block';
  if (permissions?.clipboardWrite) inner.setAttribute('allow', 'clipboard-write');
  const meta = `<meta http-equiv="Content-Security-Policy" content="${buildCsp(csp).replace(/"/g, '&quot;')}">`;
  // The policy comes first in the document, so it covers everything the view has.
  inner.srcdoc = /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => `${head}${meta}${PROBE}`) : `${meta}${PROBE}${html}`;
  document.body.appendChild(inner);
}

window.addEventListener('message', (event) => {
  if (event.source === window.parent) {
    if (event.origin !== host) return;
    const data = event.data as { method?: string; params?: { html?: string; csp?: McpUiResourceCsp; permissions?: McpUiResourcePermissions } };
    if (data?.method === 'ui/notifications/sandbox-resource-ready') {
      load(data.params?.html ?? '', data.params?.csp, data.params?.permissions);
      return;
    }
    // The inner document has an opaque origin: '*' is the only target that reaches it.
    inner?.contentWindow?.postMessage(event.data, '*');
  } else if (inner && event.source === inner.contentWindow) {
    window.parent.postMessage(event.data, host);
  }
});

window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, host);
