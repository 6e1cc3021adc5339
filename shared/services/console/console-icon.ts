/**
 * The console's icon (a magnifier over a shield), inlined as a data URL in the console shell and the
 * local sign-in page, so browsers ask for no /favicon.ico (which no route serves: on AWS every path
 * is an API Gateway method). The shell's CSP allows `img-src data:`.
 */
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path d="M16 2 4 7v8c0 7.5 5.1 13.2 12 15 6.9-1.8 12-7.5 12-15V7z" fill="#1f5fbf"/><circle cx="15" cy="14" r="5.5" fill="none" stroke="#fff" stroke-width="2.5"/><path d="m19 18 5 5" stroke="#fff" stroke-width="2.5" stroke-linecap="round"/></svg>';

export const CONSOLE_ICON_DATA_URL = `data:image/svg+xml,${encodeURIComponent(SVG)}`;
