/**
 * The console may be served below a path prefix (an API Gateway stage such as `/prod`): the prefix is
 * whatever precedes `/console/assets/` in this script's own URL, and every page and API path is
 * built from it, so the same build works at the root of a custom domain and under a stage.
 */
const ASSETS_PATH = /\/console\/assets\/[^/]*$/;

export const BASE_PATH = ASSETS_PATH.test(new URL(import.meta.url).pathname)
  ? new URL(import.meta.url).pathname.replace(ASSETS_PATH, '')
  : '';

/** A console page path (`/sessions/…`) as the browser sees it. */
export function pageHref(path: string): string {
  return `${BASE_PATH}${path}`;
}

/** The path of the current page without the prefix. */
export function currentPage(pathname: string = location.pathname): string {
  return pathname.startsWith(BASE_PATH) ? pathname.slice(BASE_PATH.length) || '/' : pathname;
}

export function apiUrl(path: string): string {
  return `${location.origin}${BASE_PATH}${path}`;
}
