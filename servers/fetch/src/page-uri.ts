/** `fetch://page/{+url}`: the resource of a fetched page. */
export const PAGE_TEMPLATE = 'fetch://page/{+url}';
const PREFIX = 'fetch://page/';

export function pageUri(url: string): string {
  return `${PREFIX}${url}`;
}

export function urlOfPageUri(uri: string): string | undefined {
  return uri.startsWith(PREFIX) ? uri.slice(PREFIX.length) : undefined;
}
