// taxonomies.js: taxonomies, their terms, and the term editor built from the taxonomy's
// blueprint (title, slug and description are the term's own; other fields are its data).
import { api, ApiError, describe } from './api.js';
import { fieldErrors, h, message, show } from './dom.js';
import { buildForm, check, followTitle } from './fields.js';
import { previewer } from './globals.js';

const enc = encodeURIComponent;
const own = ['title', 'slug', 'description'];

export async function render(ctx, view, tax, slug) {
  if (!tax) {
    const { body } = await api('GET', '/taxonomies');
    show(view, h('h1', {}, 'Taxonomies'),
      body.data.length ? h('ul', { class: 'cards' }, body.data.map((t) => h('li', {}, ctx.link(ctx.url(`/taxonomies/${enc(t.handle)}`), t.title || t.handle))))
        : message('muted', 'This site defines no taxonomies.'));
    return;
  }
  const t = (await api('GET', `/taxonomies/${enc(tax)}`)).body.data;
  const base = ctx.url(`/taxonomies/${enc(tax)}`);
  if (!slug) {
    const { body } = await api('GET', `/taxonomies/${enc(tax)}/terms`);
    show(view, h('p', { class: 'crumbs' }, ctx.link(ctx.url('/taxonomies'), 'Taxonomies'), ' / ', t.title || tax),
      h('div', { class: 'toolbar' }, h('h1', {}, t.title || tax), h('span', { class: 'spacer' }), ctx.can('taxonomies', 'create') ? ctx.link(`${base}/_new`, 'New term') : null),
      body.data.length ? h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Term'), h('th', {}, 'Slug'), h('th', {}, 'Description'))),
        h('tbody', {}, body.data.map((term) => h('tr', {}, h('td', {}, ctx.link(`${base}/${enc(term.slug)}`, term.title || term.slug)), h('td', {}, h('code', {}, term.slug)), h('td', {}, term.description ?? '')))))
        : message('muted', 'No terms yet.'));
    return;
  }
  const isNew = slug === '_new';
  const [res, bp] = await Promise.all([isNew ? null : api('GET', `/taxonomies/${enc(tax)}/terms/${enc(slug)}`), api('GET', `/taxonomies/${enc(tax)}/blueprint`).then((r) => r.body)]);
  const term = res ? res.body.data : { title: '', slug: '', description: '', data: {} };
  const etag = res?.headers.get('ETag');
  const bpField = (k) => (bp.data?.tabs ?? []).flatMap((x) => [...(x.fields ?? []), ...(x.sections ?? []).flatMap((s) => s.fields ?? [])]).find((f) => f.handle === k);
  const titleDef = bpField('title') ?? { handle: 'title', type: 'text', required: true };
  const descDef = bpField('description') ?? { handle: 'description', type: 'text' };
  const errs = {};
  const field = (name, label, input, hint) => {
    input.id = `f-${name}`;
    errs[name] = h('div', { class: 'field-error', id: `err-${name}` });
    input.setAttribute('aria-describedby', `err-${name}`);
    return h('div', { class: 'field', 'data-field': name }, h('label', { for: input.id }, label), hint ? h('small', { class: 'help' }, hint) : null, input, errs[name]);
  };
  const title = h('input', { type: 'text', value: term.title, 'data-role': 'title' });
  const slugIn = h('input', { type: 'text', value: term.slug, readonly: !isNew, spellcheck: 'false' });
  if (isNew) followTitle(slugIn);
  const desc = h('textarea', { rows: 2, value: term.description ?? '' });
  const form = bp.data ? buildForm({ blueprint: bp.data, fieldsets: bp.fieldsets, values: term.data ?? {}, isNew, skip: own, preview: previewer(ctx), ctx }) : null;
  const note = h('div', { class: 'notice', role: 'status' });
  const canSave = ctx.can('taxonomies', isNew ? 'create' : 'edit');
  const el = h('form', { class: 'editor', novalidate: true },
    field('title', titleDef.display || 'Title', title), field('slug', 'Slug', slugIn, isNew ? 'Made from the title until you edit it; it cannot be changed later.' : null),
    field('description', descDef.display || 'Description', desc), form?.el, note,
    h('div', { class: 'actions' }, canSave ? h('button', { type: 'submit' }, isNew ? 'Create term' : 'Save') : message('muted', 'You may view but not change terms.'),
      !isNew && ctx.can('taxonomies', 'delete') ? h('button', { type: 'button', class: 'danger', onclick: () => remove(false) }, 'Delete term') : null));
  el.addEventListener('input', () => { ctx.dirty = true; });
  const showErrs = (fields, text) => {
    for (const e of Object.values(errs)) show(e);
    const rest = {};
    for (const [k, m] of Object.entries(fields ?? {})) if (errs[k]) show(errs[k], [].concat(m).join(' ')); else rest[k] = m;
    show(note, message('error', text), fieldErrors(form ? form.showErrors(rest) : rest));
  };
  el.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const local = form ? form.validate() : {};
    for (const [def, v] of [[titleDef, title.value], [descDef, desc.value]]) { const m = check(def, v || undefined); if (m.length) local[def.handle] = m; }
    if (Object.keys(local).length) return showErrs(local, 'Some fields need attention before saving.');
    const body = { title: title.value.trim(), description: desc.value, data: form ? form.values() : term.data };
    try {
      if (isNew) {
        if (slugIn.value.trim()) body.slug = slugIn.value.trim();
        const out = await api('POST', `/taxonomies/${enc(tax)}/terms`, { json: body });
        ctx.dirty = false;
        return ctx.navigate(`${base}/${enc(out.body.data.slug)}`, { replace: true });
      }
      await api('PUT', `/taxonomies/${enc(tax)}/terms/${enc(slug)}`, { json: body, headers: etag ? { 'If-Match': etag } : {} });
      ctx.dirty = false;
      await render(ctx, view, tax, slug);
      show(view.querySelector('form.editor > .notice'), message('ok', `Saved at ${new Date().toLocaleTimeString()}.`));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'CONFLICT' && !isNew) {
        return show(note, h('div', { class: 'conflict', role: 'alert' }, h('p', { class: 'error' }, 'Someone else changed this term after you opened it, so your changes were not saved.'),
          h('button', { type: 'button', class: 'secondary', onclick: () => { ctx.dirty = false; render(ctx, view, tax, slug); } }, 'Reload their version')));
      }
      showErrs(err.fields, describe(err));
    }
  });
  async function remove(force) {
    if (!force && !confirm(`Delete the term ${term.title || term.slug}?`)) return;
    try {
      await api('DELETE', `/taxonomies/${enc(tax)}/terms/${enc(slug)}${force ? '?force=true' : ''}`);
      ctx.dirty = false;
      ctx.navigate(base, { replace: true });
    } catch (err) {
      const refs = err.error?.references;
      show(note, message('error', describe(err)), Array.isArray(refs) ? [h('p', {}, `Used by: ${refs.join(', ')}.`),
        h('button', { type: 'button', class: 'danger', onclick: () => remove(true) }, 'Delete it anyway')] : null);
    }
  }
  show(view, h('p', { class: 'crumbs' }, ctx.link(ctx.url('/taxonomies'), 'Taxonomies'), ' / ', ctx.link(base, t.title || tax), ' / ', isNew ? 'New term' : term.slug),
    h('h1', {}, isNew ? 'New term' : term.title || term.slug), el);
}
