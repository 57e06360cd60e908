/**
 * The header every request of the playground's page to its forwarder carries. A navigation (a
 * clicked or typed link, a URL elicitation's Open) and a form posted from another site cannot
 * set a header, and a script on another site cannot either without a CORS preflight the
 * forwarder never answers: so a request with it came from the page's own `fetch`.
 */
export const FORWARDER_HEADER = 'x-parley-playground';
export const FORWARDER_HEADER_VALUE = '1';
