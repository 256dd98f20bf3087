// dom.js: building elements from nodes, never from HTML strings. Text always goes in as text nodes, so content from
// the server can never become markup.

/** safeURL keeps same-origin paths and http(s) URLs; anything else (javascript:, data:) becomes '#'. */
export function safeURL(u) {
  const s = String(u ?? '');
  if (s.startsWith('/') && !s.startsWith('//')) return s;
  try {
    const url = new URL(s, location.href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : '#';
  } catch {
    return '#';
  }
}

const props = new Set(['value', 'checked', 'disabled', 'selected', 'hidden', 'multiple']);

/**
 * h creates an element: h('a', {href: '/x', onclick: f}, 'text', child, [more]). Attributes named
 * on* become listeners, value/checked/... are set as properties, href/src pass through safeURL,
 * and children that are not nodes are added as text.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (props.has(k)) el[k] = v;
    else if (k === 'href' || k === 'src') el.setAttribute(k, safeURL(v));
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  add(el, children);
  return el;
}

function add(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
}

/** show replaces the children of el. */
export function show(el, ...children) {
  el.replaceChildren();
  add(el, children);
}

/** message is a status line: kind 'error', 'ok' or 'muted'. */
export function message(kind, ...text) {
  return h('p', { class: kind, role: kind === 'error' ? 'alert' : 'status' }, ...text);
}

/** when formats an ISO time for people, or returns it unchanged when it is not one. */
export function when(iso) {
  const d = new Date(iso);
  return iso && !Number.isNaN(d.getTime()) ? d.toLocaleString() : (iso ?? '');
}

/** pretty returns value as indented JSON for a textarea. */
export const pretty = (value) => JSON.stringify(value ?? {}, null, 2);

/**
 * parseJSON reads a textarea that must hold a JSON value of the given kind ('object' or 'array')
 * and returns [value, error message].
 */
export function parseJSON(text, kind) {
  let v;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return [null, `Not valid JSON: ${e.message}`];
  }
  const isArray = Array.isArray(v);
  if (kind === 'array' ? !isArray : (isArray || v === null || typeof v !== 'object')) {
    return [null, `Must be a JSON ${kind === 'array' ? 'array ([...])' : 'object ({...})'}.`];
  }
  return [v, ''];
}

/** fieldErrors lists an API error's fields (handle → messages) as "handle: message" lines. */
export function fieldErrors(fields, only) {
  const items = [];
  for (const [k, msgs] of Object.entries(fields ?? {})) {
    if (only && !only(k)) continue;
    for (const m of [].concat(msgs)) items.push(h('li', {}, h('code', {}, k), ': ', String(m)));
  }
  return items.length ? h('ul', { class: 'field-errors' }, items) : null;
}
