// navigation.js: navigation trees: a read-only view of the tree and its items as JSON to edit.
import { api, ApiError, describe } from './api.js';
import { fieldErrors, h, message, parseJSON, pretty, show } from './dom.js';

const enc = encodeURIComponent;

/** tree draws items as nested lists: label, then where it leads. */
function tree(items) {
  if (!Array.isArray(items) || items.length === 0) return null;
  return h('ul', { class: 'tree' }, items.map((it) => h('li', {},
    h('strong', {}, String(it.label ?? '')),
    it.entry ? h('span', { class: 'muted' }, ` → ${it.entry}`) : null,
    it.url ? h('span', { class: 'muted' }, ` ${it.url}`) : null,
    it.missing ? h('span', { class: 'badge draft' }, 'missing entry') : null,
    it.external ? h('span', { class: 'muted' }, ' (new tab)') : null,
    tree(it.children))));
}

/** editable strips what the server adds to entry items, so the JSON shows what is stored. */
function editable(items) {
  return (items ?? []).map((it) => {
    const out = { ...it };
    if (out.entry) {
      delete out.url;
      delete out.missing;
    }
    if (Array.isArray(out.children)) out.children = editable(out.children);
    return out;
  });
}

/** set says whether a url or entry value is given (null is what responses show for a missing entry). */
const set = (v) => v !== undefined && v !== null && v !== '';

/**
 * urlAndEntry lists the paths (items[2].children[1]) of the items that have both a url and an
 * entry. An item links to one or the other (with neither it is a heading); the API refuses both.
 */
export function urlAndEntry(items, at = 'items') {
  const out = [];
  (Array.isArray(items) ? items : []).forEach((it, i) => {
    if (!it || typeof it !== 'object') return;
    const p = `${at}[${i}]`;
    if (set(it.url) && set(it.entry)) out.push(p);
    out.push(...urlAndEntry(it.children, `${p}.children`));
  });
  return out;
}

function explain(err) {
  switch (err instanceof ApiError ? err.code : '') {
    case 'DEPTH_EXCEEDED':
      return [message('error', describe(err)), message('muted', `This navigation allows nesting ${err.error.maxDepth} level(s) deep; the tree you sent is ${err.error.actualDepth} deep.`)];
    case 'INVALID_ENTRY_REFERENCE':
      return [message('error', describe(err)), fieldErrors(err.fields), message('muted', 'An entry reference is "collection/slug", of an existing entry in a collection this navigation offers.')];
  }
  return [message('error', describe(err)), fieldErrors(err.fields)];
}

export async function render(ctx, view, handle) {
  if (!handle) {
    const { body } = await api('GET', '/navigation');
    show(view, h('h1', {}, 'Navigation'),
      body.data.length
        ? h('ul', { class: 'cards' }, body.data.map((n) => h('li', {}, ctx.link(ctx.url(`/navigation/${enc(n.handle)}`), n.title || n.handle))))
        : message('muted', 'This site defines no navigation.'));
    return;
  }
  const res = await api('GET', `/navigation/${enc(handle)}`);
  let etag = res.headers.get('ETag');
  const nav = res.body.data;
  const preview = h('div', {}, tree(nav.items) ?? message('muted', 'No items yet.'));
  const items = h('textarea', { rows: 18, class: 'mono', value: pretty(editable(nav.items)), spellcheck: 'false', 'aria-label': 'Items (JSON array)' });
  const note = h('div', { class: 'notice' });
  const save = h('button', { type: 'submit' }, 'Save');
  const limits = [
    nav.max_depth === undefined || nav.max_depth === null ? 'Any depth.' : `At most ${nav.max_depth} level(s) of nesting (0 = a flat list).`,
    Array.isArray(nav.collections) && nav.collections.length ? ` Entries from: ${nav.collections.join(', ')}.` : '',
  ].join('');
  const form = h('form', { class: 'editor', novalidate: true },
    h('div', { class: 'field' }, h('label', {}, 'Items: [{"label", "url" or "entry": "collection/slug" (not both; neither makes a heading), "external", "children": [...]}]'), items, h('small', { class: 'muted' }, limits)),
    note, h('div', { class: 'actions' }, ctx.can('navigation', 'edit') ? save : message('muted', 'You may view but not edit navigation.')));
  form.addEventListener('input', () => { ctx.dirty = true; });
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const [v, bad] = parseJSON(items.value, 'array');
    if (bad) return show(note, message('error', bad));
    const both = urlAndEntry(v);
    if (both.length) {
      return show(note, message('error', 'An item links to a url or to an entry, not both. Remove one of the two from each item below (an item with neither is a heading).'),
        fieldErrors(Object.fromEntries(both.map((p) => [p, 'has both "url" and "entry"']))));
    }
    save.disabled = true;
    try {
      const out = await api('PUT', `/navigation/${enc(handle)}`, { json: { items: v }, headers: etag ? { 'If-Match': etag } : {} });
      etag = out.headers.get('ETag');
      items.value = pretty(editable(out.body.data.items));
      show(preview, tree(out.body.data.items) ?? message('muted', 'No items yet.'));
      ctx.dirty = false;
      show(note, message('ok', `Saved at ${new Date().toLocaleTimeString()}.`));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'CONFLICT') {
        show(note, message('error', 'This navigation was changed by someone else after you opened it, so your tree was not saved. Reload to see the current one.'),
          h('button', { type: 'button', class: 'secondary', onclick: () => { ctx.dirty = false; render(ctx, view, handle); } }, 'Reload'));
      } else {
        show(note, ...explain(err));
      }
    } finally {
      save.disabled = false;
    }
  });
  show(view, h('p', { class: 'crumbs' }, ctx.link(ctx.url('/navigation'), 'Navigation'), ' / ', handle),
    h('h1', {}, nav.title || handle), h('h2', {}, 'Tree'), preview, h('h2', {}, 'Edit'), form);
}
