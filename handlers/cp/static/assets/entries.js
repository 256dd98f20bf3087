// entries.js: the entries of a collection, and the entry editor.
import { api, ApiError, describe } from './api.js';
import { fieldErrors, h, message, parseJSON, pretty, show, when } from './dom.js';

const pageSize = 20;
const enc = encodeURIComponent;

/** list draws one page of a collection's entries, with a status filter. */
export async function list(ctx, view, collection, q) {
  const status = ['published', 'draft'].includes(q.get('status')) ? q.get('status') : '';
  const offset = Math.max(0, Number.parseInt(q.get('offset') ?? '0', 10) || 0);
  const base = ctx.url(`/entries/${enc(collection)}`);
  const params = new URLSearchParams({ limit: String(pageSize), offset: String(offset) });
  if (status) params.set('status', status);
  const { body } = await api('GET', `/entries/${enc(collection)}?${params}`);
  const total = body.meta?.total ?? body.data.length;
  const title = ctx.collections.find((c) => c.handle === collection)?.title || collection;

  const pageURL = (o, s = status) => {
    const p = new URLSearchParams();
    if (s) p.set('status', s);
    if (o > 0) p.set('offset', String(o));
    const qs = p.toString();
    return qs ? `${base}?${qs}` : base;
  };
  const filter = h('select', { 'aria-label': 'Status', onchange: (ev) => ctx.navigate(pageURL(0, ev.target.value)) },
    [['', 'All statuses'], ['published', 'Published'], ['draft', 'Draft']].map(([v, t]) => h('option', { value: v, selected: v === status }, t)));
  const rows = body.data.map((e) => h('tr', {},
    h('td', {}, ctx.link(`${base}/${enc(e.slug)}`, e.title || e.slug)),
    h('td', {}, h('span', { class: `badge ${e.status}` }, e.status)),
    h('td', {}, when(e.updatedAt))));

  show(view,
    h('div', { class: 'toolbar' },
      h('h1', {}, title),
      h('span', { class: 'spacer' }),
      filter,
      ctx.canEntries(collection, 'create') ? ctx.link(`${base}/_new`, 'New entry') : null),
    rows.length
      ? h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Title'), h('th', {}, 'Status'), h('th', {}, 'Updated'))), h('tbody', {}, rows))
      : message('muted', offset > 0 ? 'No entries on this page.' : 'No entries yet.'),
    h('div', { class: 'pager' },
      offset > 0 ? ctx.link(pageURL(Math.max(0, offset - pageSize)), '← Previous') : null,
      h('span', { class: 'muted' }, total ? `${Math.min(offset + 1, total)}–${Math.min(offset + rows.length, total)} of ${total}` : ''),
      offset + rows.length < total ? ctx.link(pageURL(offset + pageSize), 'Next →') : null));
}

/** edit draws the editor of one entry, or of a new one when slug is null. */
export async function edit(ctx, view, collection, slug) {
  const base = ctx.url(`/entries/${enc(collection)}`);
  let entry = { title: '', slug: '', status: '', content: '', data: {} };
  if (slug !== null) entry = (await api('GET', `/entries/${enc(collection)}/${enc(slug)}`)).body.data;
  const isNew = slug === null;
  const col = ctx.collections.find((c) => c.handle === collection);

  const errs = {}; // field → element that shows its messages
  const field = (name, label, input, hint) => {
    errs[name] = h('div', { class: 'field-error', id: `err-${name}` });
    input.id = `f-${name}`;
    input.setAttribute('aria-describedby', `err-${name}`);
    return h('div', { class: 'field' }, h('label', { for: `f-${name}` }, label), input, hint ? h('small', { class: 'muted' }, hint) : null, errs[name]);
  };
  const title = h('input', { type: 'text', value: entry.title, required: true });
  const slugInput = h('input', { type: 'text', value: entry.slug, readonly: !isNew, placeholder: isNew ? 'made from the title when empty' : null });
  const status = h('select', {}, ['draft', 'published'].map((s) => h('option', { value: s, selected: s === (entry.status || col?.defaultStatus || 'draft') }, s)));
  const body = h('textarea', { rows: 14, class: 'mono', value: entry.content ?? '' });
  const data = h('textarea', { rows: 10, class: 'mono', value: pretty(entry.data), spellcheck: 'false' });
  const general = h('div', { class: 'notice' });
  const save = h('button', { type: 'submit' }, isNew ? 'Create' : 'Save');

  const form = h('form', { class: 'editor', novalidate: true },
    field('title', 'Title', title),
    field('slug', 'Slug', slugInput, isNew ? 'Letters, digits, - and _. It cannot be changed later here.' : null),
    field('status', 'Status', status, ctx.canEntries(collection, 'publish') ? null : 'Publishing needs the publish permission.'),
    field('content', 'Content (Markdown)', body),
    field('data', 'Custom fields (JSON object)', data),
    general,
    h('div', { class: 'actions' }, save,
      !isNew && ctx.canEntries(collection, 'delete') ? h('button', { type: 'button', class: 'danger', onclick: remove }, 'Delete') : null));
  form.addEventListener('input', () => { ctx.dirty = true; });
  form.addEventListener('submit', submit);

  show(view,
    h('p', { class: 'crumbs' }, ctx.link(base, col?.title || collection), ' / ', isNew ? 'New entry' : entry.slug),
    h('div', { class: 'toolbar' }, h('h1', {}, isNew ? 'New entry' : entry.title || entry.slug),
      !isNew && entry.url && entry.status === 'published' ? h('a', { href: entry.url, target: '_blank', rel: 'noopener' }, 'View on site') : null),
    isNew ? null : h('p', { class: 'muted' }, `Last updated ${when(entry.updatedAt)}`),
    form);

  function clearErrors() {
    for (const el of Object.values(errs)) show(el);
    show(general);
  }

  // showError puts field messages next to their inputs (custom fields next to the JSON) and
  // anything else at the bottom of the form.
  function showError(err) {
    if (err instanceof ApiError && err.code === 'CONFLICT') {
      show(general, message('error', 'Someone else changed this entry after you opened it, so it was not saved. Reload to get their version (your changes here will be lost), or copy your text first.'),
        h('button', { type: 'button', class: 'secondary', onclick: () => { ctx.dirty = false; edit(ctx, view, collection, entry.slug); } }, 'Reload the entry'));
      return;
    }
    const top = ['title', 'slug', 'status', 'content'];
    for (const [k, msgs] of Object.entries(err.fields ?? {})) {
      if (top.includes(k)) show(errs[k], [].concat(msgs).join(' '));
    }
    show(errs.data, fieldErrors(err.fields, (k) => !top.includes(k)));
    show(general, message('error', describe(err)));
  }

  async function submit(ev) {
    ev.preventDefault();
    clearErrors();
    const [values, bad] = parseJSON(data.value, 'object');
    if (bad) {
      show(errs.data, bad);
      data.focus();
      return;
    }
    const payload = { title: title.value, status: status.value, content: body.value, data: values };
    if (isNew) {
      if (slugInput.value.trim()) payload.slug = slugInput.value.trim();
    } else {
      // The API merges data key by key; a key removed in the editor is removed with null.
      for (const k of Object.keys(entry.data ?? {})) if (!(k in values)) payload.data[k] = null;
      payload.contentHash = entry.contentHash;
    }
    save.disabled = true;
    try {
      const res = isNew
        ? await api('POST', `/entries/${enc(collection)}`, { json: payload })
        : await api('PUT', `/entries/${enc(collection)}/${enc(entry.slug)}`, { json: payload });
      ctx.dirty = false;
      const saved = res.body.data;
      if (isNew) return ctx.navigate(`${base}/${enc(saved.slug)}`, { replace: true });
      entry = saved;
      data.value = pretty(saved.data);
      show(general, message('ok', `Saved at ${new Date().toLocaleTimeString()}.`));
    } catch (err) {
      showError(err);
    } finally {
      save.disabled = false;
    }
  }

  async function remove() {
    if (!confirm(`Delete “${entry.title || entry.slug}”? This cannot be undone.`)) return;
    clearErrors();
    try {
      await api('DELETE', `/entries/${enc(collection)}/${enc(entry.slug)}`);
      ctx.dirty = false;
      ctx.navigate(base, { replace: true });
    } catch (err) {
      showError(err);
    }
  }
}
