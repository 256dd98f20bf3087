// entries.js: the entries of a collection (search, sort, status filter, pages, bulk actions) and
// the entry editor, whose form is built from the collection's blueprint.
import { api, ApiError, describe } from './api.js';
import { fieldErrors, h, message, parseJSON, pretty, show, when } from './dom.js';
import { buildForm, check, followTitle } from './fields.js';
import { markdownEditor } from './markdown.js';

const pageSize = 20;
const enc = encodeURIComponent;
const sorts = [['', 'Default order'], ['-updatedAt', 'Recently updated'], ['title', 'Title A–Z'], ['-title', 'Title Z–A'], ['-createdAt', 'Newest'], ['createdAt', 'Oldest']];

/** listQuery reads a list page's address: its status filter, search, sort and offset. */
function listQuery(q) {
  const status = ['published', 'draft'].includes(q.get('status')) ? q.get('status') : '';
  const search = (q.get('q') ?? '').trim();
  const sort = !search && sorts.some(([v]) => v === q.get('sort')) ? q.get('sort') : '';
  const offset = Math.max(0, Number.parseInt(q.get('offset') ?? '0', 10) || 0);
  return { status, search, sort, offset };
}

/** listPath is the API request of a list page. It asks only for the columns shown, which the
 * server answers from its index without reading the entries' files. */
export function listPath(collection, q) {
  const { status, search, sort, offset } = listQuery(q);
  const params = new URLSearchParams({ limit: String(pageSize), offset: String(offset), fields: 'slug,title,status,updatedAt' });
  if (search) params.set('q', search);
  if (status) params.set('status', status);
  if (sort) params.set('sort', sort);
  return `/entries/${enc(collection)}?${params}`;
}

/** list draws one page of a collection's entries. A search asks the server's full-text index
 * (titles and bodies, drafts included, best match first), so it has no sort of its own. */
export async function list(ctx, view, collection, q, flash = '') {
  const { status, search, sort, offset } = listQuery(q);
  const base = ctx.url(`/entries/${enc(collection)}`);
  const { body } = await api('GET', listPath(collection, q));
  const rowsData = body.data;
  const total = body.meta?.total ?? body.data.length;
  const title = ctx.collections.find((c) => c.handle === collection)?.title || collection;

  const pageURL = (o, over = {}) => {
    const p = new URLSearchParams();
    const v = { status, sort, q: search, ...over };
    for (const k of ['q', 'status', 'sort']) if (v[k]) p.set(k, v[k]);
    if (o > 0) p.set('offset', String(o));
    const qs = p.toString();
    return qs ? `${base}?${qs}` : base;
  };
  const searchBox = h('input', { type: 'search', name: 'q', value: search, 'aria-label': 'Search titles and text', placeholder: 'Search…', maxlength: 200 });
  const tools = h('form', { class: 'filters', role: 'search', onsubmit: (ev) => { ev.preventDefault(); ctx.navigate(pageURL(0, { q: searchBox.value.trim() })); } },
    searchBox,
    h('select', { 'aria-label': 'Status', onchange: (ev) => ctx.navigate(pageURL(0, { status: ev.target.value })) },
      [['', 'All statuses'], ['published', 'Published'], ['draft', 'Draft']].map(([v, t]) => h('option', { value: v, selected: v === status }, t))),
    h('select', { 'aria-label': 'Sort', disabled: search !== '', title: search ? 'Search results come best match first' : null, onchange: (ev) => ctx.navigate(pageURL(0, { sort: ev.target.value })) },
      sorts.map(([v, t]) => h('option', { value: v, selected: v === sort }, t))),
    h('button', { type: 'submit', class: 'secondary' }, 'Search'));

  const checks = [];
  const rows = rowsData.map((e) => {
    const c = h('input', { type: 'checkbox', value: e.slug, 'aria-label': `Select ${e.title || e.slug}` });
    checks.push(c);
    return h('tr', {},
      h('td', {}, c),
      h('td', {}, ctx.link(`${base}/${enc(e.slug)}`, e.title || e.slug)),
      h('td', {}, h('span', { class: `badge ${e.status}` }, e.status)),
      h('td', {}, when(e.updatedAt)));
  });
  const all = h('input', { type: 'checkbox', 'aria-label': 'Select all on this page', onchange: (ev) => { for (const c of checks) c.checked = ev.target.checked; } });
  const note = h('div', { class: 'notice', role: 'status' }, flash ? message('ok', flash) : null);
  const bulk = async (action) => {
    const slugs = checks.filter((c) => c.checked).map((c) => c.value);
    if (!slugs.length) return show(note, message('error', 'Select entries first.'));
    if (action === 'delete' && !confirm(`Delete ${slugs.length} entr${slugs.length === 1 ? 'y' : 'ies'}? This cannot be undone.`)) return;
    let done = 0;
    const failed = [];
    for (const s of slugs) {
      try {
        if (action === 'delete') await api('DELETE', `/entries/${enc(collection)}/${enc(s)}`);
        else {
          const cur = (await api('GET', `/entries/${enc(collection)}/${enc(s)}`)).body.data;
          await api('PUT', `/entries/${enc(collection)}/${enc(s)}`, { json: { status: action, contentHash: cur.contentHash } });
        }
        done++;
      } catch (err) {
        failed.push(`${s}: ${describe(err)}`);
      }
    }
    const verb = { published: 'Published', draft: 'Unpublished', delete: 'Deleted' }[action];
    await list(ctx, view, collection, q, `${verb} ${done} of ${slugs.length}.${failed.length ? ` Failed: ${failed.join('; ')}` : ''}`);
  };
  const canPublish = ctx.canEntries(collection, 'publish');
  const bulkBar = h('div', { class: 'row bulk', role: 'group', 'aria-label': 'Bulk actions on the selected entries' },
    canPublish ? h('button', { type: 'button', class: 'secondary', onclick: () => bulk('published') }, 'Publish') : null,
    canPublish ? h('button', { type: 'button', class: 'secondary', onclick: () => bulk('draft') }, 'Unpublish') : null,
    ctx.canEntries(collection, 'delete') ? h('button', { type: 'button', class: 'secondary danger-text', onclick: () => bulk('delete') }, 'Delete') : null);

  show(view,
    h('div', { class: 'toolbar' },
      h('h1', {}, title),
      h('span', { class: 'spacer' }),
      ctx.canEntries(collection, 'create') ? ctx.link(`${base}/_new`, 'New entry') : null),
    tools, note,
    rows.length
      ? [bulkBar, h('div', { class: 'scroll' }, h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, all), h('th', {}, 'Title'), h('th', {}, 'Status'), h('th', {}, 'Updated'))), h('tbody', {}, rows)))]
      : message('muted', search ? 'No entries match.' : offset > 0 ? 'No entries on this page.' : 'No entries yet.'),
    h('div', { class: 'pager' },
      offset > 0 ? ctx.link(pageURL(Math.max(0, offset - pageSize)), '← Previous') : null,
      h('span', { class: 'muted' }, total ? `${Math.min(offset + 1, total)}–${Math.min(offset + rows.length, total)} of ${total}` : ''),
      offset + rows.length < total ? ctx.link(pageURL(offset + pageSize), 'Next →') : null));
}

/** edit loads an entry (or starts a new one when slug is null) and the blueprint, and draws the editor. */
export async function edit(ctx, view, collection, slug) {
  const [entryRes, bp] = await Promise.all([
    slug === null ? null : api('GET', `/entries/${enc(collection)}/${enc(slug)}`),
    api('GET', `/collections/${enc(collection)}/blueprint`).then((r) => r.body),
  ]);
  const entry = entryRes ? entryRes.body.data : null;
  draw(ctx, view, collection, entry, bp);
}

const fixed = ['title', 'slug', 'content'];

/** differences names what differs between two versions of an entry, for the conflict message. */
function differences(a, b, bp) {
  const label = (k) => bp?.data ? (bpField(bp, k)?.display || k) : k;
  const out = [];
  for (const k of ['title', 'status', 'content']) if (JSON.stringify(a[k] ?? '') !== JSON.stringify(b[k] ?? '')) out.push(k === 'content' ? 'Content' : label(k));
  const keys = new Set([...Object.keys(a.data ?? {}), ...Object.keys(b.data ?? {})]);
  for (const k of keys) if (JSON.stringify(a.data?.[k]) !== JSON.stringify(b.data?.[k])) out.push(label(k));
  return out;
}

function bpField(bp, handle) {
  for (const t of bp?.data?.tabs ?? []) {
    for (const f of [...(t.fields ?? []), ...(t.sections ?? []).flatMap((s) => s.fields ?? [])]) if (f.handle === handle) return f;
  }
  return null;
}

function draw(ctx, view, collection, entry, bp, flash = '') {
  const base = ctx.url(`/entries/${enc(collection)}`);
  const isNew = entry === null;
  const col = ctx.collections.find((c) => c.handle === collection);
  const e = entry ?? { title: '', slug: '', status: '', content: '', data: {} };
  const preview = (md) => api('POST', `/collections/${enc(collection)}/markdown`, { json: { markdown: md } }).then((r) => r.body.data.html);
  const titleDef = bpField(bp, 'title') ?? { handle: 'title', type: 'text', display: 'Title', required: true };
  const contentDef = bpField(bp, 'content');

  const errs = {}; // fixed field → element that shows its messages
  const field = (name, label, input, hint, required) => {
    errs[name] = h('div', { class: 'field-error', id: `err-${name}` });
    if (input.tagName !== 'DIV') {
      input.id = `f-${name}`;
      input.setAttribute('aria-describedby', `${hint ? `hint-${name} ` : ''}err-${name}`);
    }
    return h('div', { class: 'field', 'data-field': name },
      h('label', { for: `f-${name}` }, label, required ? h('span', { class: 'req', 'aria-hidden': 'true' }, ' *') : null, required ? h('span', { class: 'sr-only' }, ' (required)') : null),
      hint ? h('small', { class: 'help', id: `hint-${name}` }, hint) : null, input, errs[name]);
  };
  const title = h('input', { type: 'text', value: e.title, 'data-role': 'title' });
  const slugInput = h('input', { type: 'text', value: e.slug, readonly: !isNew, spellcheck: 'false', placeholder: isNew ? 'made from the title' : null });
  if (isNew) followTitle(slugInput);
  const status = h('select', {}, ['draft', 'published'].map((s) => h('option', { value: s, selected: s === (e.status || col?.defaultStatus || 'draft') }, s)));
  const body = markdownEditor({ id: 'f-content', 'aria-describedby': 'err-content', value: e.content ?? '', label: contentDef?.display || 'Content', preview });
  const general = h('div', { class: 'notice', role: 'status' }, flash ? message('ok', flash) : null);
  const save = h('button', { type: 'submit' }, isNew ? 'Create' : 'Save');

  let form = null; // the blueprint's fields
  let jsonData = null; // without a blueprint: the custom fields as JSON
  if (bp?.data) {
    form = buildForm({ blueprint: bp.data, fieldsets: bp.fieldsets, values: e.data ?? {}, isNew, skip: fixed, preview, ctx, onInput: () => { ctx.dirty = true; } });
  } else {
    jsonData = h('textarea', { rows: 10, class: 'mono', value: pretty(e.data), spellcheck: 'false' });
  }

  const formEl = h('form', { class: 'editor', novalidate: true },
    field('title', titleDef.display || 'Title', title, titleDef.instructions, titleDef.required),
    field('slug', 'Slug', slugInput, isNew ? 'Lowercase letters, digits and -; made from the title until you edit it. It cannot be changed here later.' : null),
    field('status', 'Status', status, ctx.canEntries(collection, 'publish') ? null : 'Publishing needs the publish permission.'),
    form ? form.el : field('data', 'Custom fields (JSON object; this collection has no blueprint)', jsonData),
    h('div', { class: 'field field-markdown', 'data-field': 'content' }, h('label', { for: 'f-content' }, contentDef?.display || 'Content'),
      contentDef?.instructions ? h('small', { class: 'help' }, contentDef.instructions) : null, body.el, errs.content = h('div', { class: 'field-error', id: 'err-content' })),
    general,
    h('div', { class: 'actions' }, save,
      !isNew && ctx.canEntries(collection, 'delete') ? h('button', { type: 'button', class: 'danger', onclick: remove }, 'Delete') : null));
  formEl.addEventListener('input', () => { ctx.dirty = true; });
  formEl.addEventListener('submit', submit);
  // Ctrl+S (Cmd+S) saves, as in a desktop editor.
  formEl.addEventListener('keydown', (ev) => {
    if ((ev.ctrlKey || ev.metaKey) && !ev.altKey && ev.key.toLowerCase() === 's') { ev.preventDefault(); formEl.requestSubmit(save); }
  });

  const viewOnSite = !isNew && e.url && e.status === 'published' ? h('a', { href: e.url, target: '_blank', rel: 'noopener', class: 'view-site' }, 'View on site') : null;
  // A draft has no public page yet: Preview asks for a one-hour token and opens the draft with it.
  const previewNote = h('span', { class: 'preview-note', role: 'status' });
  const previewBtn = !isNew && e.status === 'draft' && ctx.canEntries(collection, 'edit') && ctx.canEntries(collection, 'view')
    ? h('button', { type: 'button', class: 'secondary preview-draft', onclick: openPreview }, 'Preview') : null;
  const seoPanel = !isNew && ctx.can('seo', 'view') ? seoPreview(ctx, collection, e) : null;
  show(view,
    h('p', { class: 'crumbs' }, ctx.link(base, col?.title || collection), ' / ', isNew ? 'New entry' : e.slug),
    h('div', { class: 'toolbar' }, h('h1', {}, isNew ? 'New entry' : e.title || e.slug),
      isNew ? null : h('span', { class: `badge ${e.status}` }, e.status), h('span', { class: 'spacer' }), viewOnSite, previewBtn, previewNote),
    isNew ? null : h('p', { class: 'muted', id: 'last-updated' }, `Last updated ${when(e.updatedAt)}`),
    formEl, seoPanel);

  async function openPreview() {
    show(previewNote);
    try {
      const p = (await api('POST', `/entries/${enc(collection)}/${enc(e.slug)}/preview`)).body.data;
      const href = new URL(p.url, location.href).href;
      // A blocked pop-up still leaves the link to follow by hand. (With the noopener feature
      // window.open always returns null, so the opener is cut by hand.)
      const w = window.open(href, '_blank');
      if (w) w.opener = null;
      show(previewNote, w ? null : h('a', { href, target: '_blank', rel: 'noopener' }, 'Open the preview'),
        h('span', { class: 'muted' }, ` Preview link valid until ${when(p.expiresAt)}.`));
    } catch (err) {
      show(previewNote, message('error', describe(err)));
    }
  }

  function clearErrors() {
    for (const el of Object.values(errs)) show(el);
    form?.clearErrors();
    show(general);
  }

  // showErrors puts messages at their fields (opening the tab that holds the first) and the rest
  // at the bottom of the form.
  function showErrors(fields, text) {
    const rest = {};
    let first = null;
    for (const [k, msgs] of Object.entries(fields ?? {})) {
      if (errs[k] && k !== 'data') { show(errs[k], [].concat(msgs).join(' ')); first ??= k; } else rest[k] = msgs;
    }
    const left = form ? form.showErrors(rest) : rest;
    if (jsonData) show(errs.data, fieldErrors(left));
    show(general, message('error', text), form ? fieldErrors(left) : null);
    if (first) document.getElementById(`f-${first}`)?.focus();
  }

  function payload() {
    const p = { title: title.value, status: status.value, content: body.value() };
    if (form) {
      const vals = form.values();
      p.data = vals;
      // The API merges data key by key: a blueprint field emptied here is removed with null.
      if (!isNew) for (const c of form.controls) if (Object.hasOwn(e.data ?? {}, c.def.handle) && !Object.hasOwn(vals, c.def.handle)) p.data[c.def.handle] = null;
    } else {
      const [values, bad] = parseJSON(jsonData.value, 'object');
      if (bad) return [null, { data: [bad] }];
      p.data = values;
      if (!isNew) for (const k of Object.keys(e.data ?? {})) if (!(k in values)) p.data[k] = null;
    }
    if (isNew && slugInput.value.trim()) p.slug = slugInput.value.trim();
    return [p, null];
  }

  async function submit(ev, overwriteHash) {
    ev?.preventDefault();
    clearErrors();
    const [p, bad] = payload();
    const local = { ...(bad ?? {}), ...(form ? form.validate() : {}) };
    const tm = check(titleDef, p?.title || undefined);
    if (tm.length) local.title = tm;
    if (isNew && p?.slug && !/^[a-z0-9][a-z0-9_-]*$/i.test(p.slug)) local.slug = ['Use letters, digits, - and _.'];
    if (Object.keys(local).length) return showErrors(local, 'Some fields need attention before saving.');
    if (!isNew) p.contentHash = overwriteHash ?? e.contentHash;
    save.disabled = true;
    try {
      const res = isNew
        ? await api('POST', `/entries/${enc(collection)}`, { json: p })
        : await api('PUT', `/entries/${enc(collection)}/${enc(e.slug)}`, { json: p });
      ctx.dirty = false;
      const saved = res.body.data;
      if (isNew) return ctx.navigate(`${base}/${enc(saved.slug)}`, { replace: true });
      // Redraw from what the server stored: heading, status, "Last updated" and every field.
      draw(ctx, view, collection, saved, bp, `Saved at ${new Date().toLocaleTimeString()}.`);
      view.querySelector('button[type=submit]')?.focus();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'CONFLICT' && !isNew) return conflict();
      if (err instanceof ApiError && err.status === 422) return showErrors(err.fields, describe(err));
      show(general, message('error', describe(err)), fieldErrors(err.fields));
    } finally {
      save.disabled = false;
    }
  }

  async function conflict() {
    let theirs = null;
    try {
      theirs = (await api('GET', `/entries/${enc(collection)}/${enc(e.slug)}`)).body.data;
    } catch (err) {
      return show(general, message('error', `Someone else changed or removed this entry after you opened it. ${describe(err)}`));
    }
    const changed = differences(e, theirs, bp);
    show(general, h('div', { class: 'conflict', role: 'alert' },
      h('p', { class: 'error' }, 'Someone else saved this entry after you opened it, so your changes were not saved.'),
      h('p', {}, changed.length ? `They changed: ${changed.join(', ')}.` : 'Their version differs only in its file.', ` Saved ${when(theirs.updatedAt)}.`),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'secondary', onclick: () => { ctx.dirty = false; draw(ctx, view, collection, theirs, bp, 'Reloaded: this is their version.'); } }, 'Reload their version (discard mine)'),
        h('button', { type: 'button', onclick: () => submit(null, theirs.contentHash) }, 'Overwrite with mine'))));
    general.querySelector('button')?.focus();
  }

  async function remove() {
    if (!confirm(`Delete “${e.title || e.slug}”? This cannot be undone.`)) return;
    clearErrors();
    try {
      await api('DELETE', `/entries/${enc(collection)}/${enc(e.slug)}`);
      ctx.dirty = false;
      ctx.navigate(base, { replace: true });
    } catch (err) {
      show(general, message('error', describe(err)));
    }
  }
}

/** flatten turns nested SEO values into dotted keys (openGraph.title) with printable values. */
function flatten(v, prefix = '', out = {}) {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    for (const [k, x] of Object.entries(v)) flatten(x, prefix ? `${prefix}.${k}` : k, out);
  } else if (v !== undefined && v !== null && v !== '') out[prefix] = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return out;
}

/** seoPreview is the entry's SEO panel: what the public page resolves to (POST /api/seo/preview)
 * and what each layer sets: the site's defaults, the collection's, and the entry's own seo field. */
function seoPreview(ctx, collection, e) {
  const body = h('div', { class: 'seo-body' });
  let loaded = false;
  const load = async () => {
    show(body, message('muted', 'Loading…'));
    try {
      const optional = (p) => api('GET', p).then((r) => r.body.data?.seo ?? {}).catch((err) => (err?.status === 404 ? {} : Promise.reject(err)));
      const [r, site, section] = await Promise.all([
        api('POST', '/seo/preview', { json: { type: 'entry', collection, slug: e.slug, includeDraft: e.status !== 'published' } }).then((x) => x.body.data),
        api('GET', '/seo/sites').then((x) => x.body.data ?? []).catch(() => []),
        optional(`/seo/sections/collection/${enc(collection)}`),
      ]);
      const siteSEO = site.find((x) => x.site === r.site)?.document?.seo ?? {};
      const layers = [[`Site ${r.site}`, siteSEO], [`Collection ${collection}`, section], ['This entry', e.data?.seo ?? {}]].map(([n, v]) => [n, flatten(v)]);
      const resolved = flatten(r.seo);
      show(body,
        h('p', { class: 'muted' }, `Public page ${r.path || '(none)'} on site ${r.site}.`),
        h('h3', {}, 'Resolved values'),
        h('div', { class: 'scroll' }, h('table', { class: 'seo-resolved' },
          h('thead', {}, h('tr', {}, h('th', {}, 'Field'), h('th', {}, 'Value'))),
          h('tbody', {}, Object.entries(resolved).map(([k, v]) => h('tr', {}, h('td', {}, h('code', {}, k)), h('td', {}, v)))))),
        h('h3', {}, 'What each layer sets'),
        h('ul', { class: 'plain seo-layers' }, layers.map(([n, vals]) => h('li', {}, h('strong', {}, n), ': ',
          Object.keys(vals).length ? Object.entries(vals).map(([k, v], i) => [i ? ', ' : '', h('code', {}, k), ` = ${v}`]) : h('span', { class: 'muted' }, 'nothing')))),
        h('p', { class: 'muted' }, 'Later layers win; what no layer sets comes from the title, the text and the site settings.'));
      loaded = true;
    } catch (err) {
      show(body, message('error', describe(err)));
    }
  };
  const box = h('details', { class: 'seo-panel', ontoggle: () => { if (box.open && !loaded) load(); } }, h('summary', {}, 'SEO'), body);
  return box;
}
