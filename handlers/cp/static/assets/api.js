// api.js: the one way the Control Panel talks to the server. Every call sends the session cookie
// (same origin only), and a 401 sends the browser to the sign-in page, as the spec asks.

const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? '';

/** The CP's own path and the API's, as the server rendered them into the page. */
export const cpPath = meta('cms-cp') || '/cp';
export const apiPath = meta('cms-api') || '/api';

const nextKey = 'cms.cp.next';

/** ApiError carries the API's error envelope: {error: {code, message, fields, ...}}. */
export class ApiError extends Error {
  constructor(status, body, headers) {
    const e = body && typeof body === 'object' && body.error && typeof body.error === 'object' ? body.error : {};
    super(typeof e.message === 'string' && e.message ? e.message : `The server answered ${status || 'nothing'}.`);
    this.status = status;
    this.code = typeof e.code === 'string' ? e.code : '';
    this.fields = e.fields && typeof e.fields === 'object' ? e.fields : {};
    this.error = e;
    this.retryAfter = headers?.get('Retry-After') ?? null;
  }
}

/** toLogin leaves for the sign-in page, remembering where to come back to. */
export function toLogin() {
  try {
    sessionStorage.setItem(nextKey, location.pathname + location.search);
  } catch { /* storage may be disabled; coming back to the start page is fine */ }
  location.assign(`${cpPath}/login`);
}

/** takeNext returns (once) the CP page to open after signing in. Only paths inside the CP count. */
export function takeNext() {
  let next = null;
  try {
    next = sessionStorage.getItem(nextKey);
    sessionStorage.removeItem(nextKey);
  } catch { /* see toLogin */ }
  return next && next.startsWith(`${cpPath}/`) && !next.startsWith('//') && !next.includes('\\') ? next : cpPath;
}

/**
 * api calls method path (relative to the API) and resolves to {body, headers, status}. Options:
 * json (a value to send as JSON), form (FormData), raw (a Blob or File sent as it is, with its
 * type), headers, and login401 (false keeps a 401 as an error instead of leaving for the sign-in
 * page). Failures reject with an ApiError.
 */
export function api(method, path, opts = {}) {
  const early = method === 'GET' && !opts.headers ? started.get(path) : undefined;
  if (early) {
    started.delete(path);
    return early;
  }
  return call(method, path, opts);
}

/** started holds GETs begun early (prefetch), each taken by the first api call asking for it. */
const started = new Map();

/** prefetch starts a GET the first screen is about to make, so that it runs alongside the
 * start-up requests instead of after them. */
export function prefetch(path) {
  const p = call('GET', path, {});
  p.catch(() => {}); // a failure reaches whoever takes the request; none is unhandled here
  started.set(path, p);
}

/** pending lets signing out stop the requests under way: one still running would come back
 * 401 once the session has ended, or draw on a page that is leaving. */
let pending = new AbortController();

/** abortAll stops every request under way; later calls run as usual. */
export function abortAll() {
  pending.abort();
  pending = new AbortController();
}

async function call(method, path, { json, form, raw, headers = {}, login401 = true } = {}) {
  const { signal } = pending;
  const init = { method, credentials: 'same-origin', signal, headers: { Accept: 'application/json', ...headers } };
  if (json !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(json);
  } else if (form) {
    init.body = form; // the browser sets the multipart boundary
  } else if (raw) {
    init.body = raw;
    init.headers['Content-Type'] ??= raw.type || 'application/octet-stream';
  }
  let res;
  try {
    res = await fetch(apiPath + path, init);
  } catch {
    if (signal.aborted) return new Promise(() => {}); // signing out; callers never resume
    throw new ApiError(0, { error: { code: 'NETWORK_ERROR', message: 'The server could not be reached. Check the connection and try again.' } });
  }
  let text;
  try {
    text = await res.text();
  } catch {
    if (signal.aborted) return new Promise(() => {});
    throw new ApiError(0, { error: { code: 'NETWORK_ERROR', message: 'The connection broke off. Try again.' } });
  }
  let body = null;
  if (text && (res.headers.get('Content-Type') || '').includes('json')) {
    try { body = JSON.parse(text); } catch { body = null; }
  }
  if (res.status === 401 && login401) {
    toLogin();
    return new Promise(() => {}); // the page is going away; callers never resume
  }
  if (!res.ok) throw new ApiError(res.status, body, res.headers);
  return { body, headers: res.headers, status: res.status };
}

/** describe turns an error into one line for the user, with the wait after a 429. */
export function describe(err) {
  if (!(err instanceof ApiError)) return `Something went wrong: ${err?.message ?? err}`;
  if (err.status === 429 && err.retryAfter) {
    const s = Number(err.retryAfter);
    const wait = s >= 120 ? `${Math.ceil(s / 60)} minutes` : `${s} seconds`;
    return `${err.message} Try again in ${wait}.`;
  }
  return err.message;
}
