// The HTTP transport has its own entry so that stdio-only programs never load it.
export { serveHttp, type HttpOptions, type HttpHandle } from './transports/http.js';
export { allowedHostHeaders, allowedOrigins } from './transports/http-origin.js';
