// globals.js: pick a global and edit its values in a form built from its blueprint (as JSON when
// it has none), saved with If-Match so that a change made meanwhile by someone else is refused
// instead of overwritten.
import { api, ApiError, describe } from './api.js';
import { fieldErrors, h, message, parseJSON, pretty, show } from './dom.js';
import { buildForm } from './fields.js';

const enc = encodeURIComponent;

/** previewer renders Markdown through a collection the user may read (the site renders it the
 * same way everywhere), or is null when there is none. */
export function previewer(ctx) {
  const c = ctx.collections.find((x) => ctx.canEntries(x.handle, 'view'));
  return c ? (md) => api('POST', `/collections/${enc(c.handle)}/markdown`, { json: { markdown: md } }).then((r) => r.body.data.html) : null;
}

export async function render(ctx, view, handle, flash = '') {
  if (!handle) {
    const { body } = await api('GET', '/globals');
    show(view, h('h1', {}, 'Globals'),
      body.data.length
        ? h('ul', { class: 'cards' }, body.data.map((g) => h('li', {}, ctx.link(ctx.url(`/globals/${enc(g.handle)}`), g.title || g.handle))))
        : message('muted', 'This site defines no globals.'));
    return;
  }
  const [res, bp, list] = await Promise.all([
    api('GET', `/globals/${enc(handle)}`),
    api('GET', `/globals/${enc(handle)}/blueprint`).then((r) => r.body),
    api('GET', '/globals').then((r) => r.body.data).catch(() => []),
  ]);
  let etag = res.headers.get('ETag');
  const stored = res.body.data ?? {};
  const title = list.find((g) => g.handle === handle)?.title || handle;
  const canEdit = ctx.can('globals', 'edit');
  const note = h('div', { class: 'notice', role: 'status' }, flash ? message('ok', flash) : null);
  const save = h('button', { type: 'submit' }, 'Save');
  let form = null;
  let json = null;
  if (bp.data) {
    form = buildForm({ blueprint: bp.data, fieldsets: bp.fieldsets, values: stored, isNew: false, preview: previewer(ctx), ctx });
  } else {
    json = h('textarea', { id: 'global-json', rows: 18, class: 'mono', value: pretty(stored), spellcheck: 'false' });
  }
  const formEl = h('form', { class: 'editor', novalidate: true },
    form ? form.el : h('div', { class: 'field' }, h('label', { for: 'global-json' }, 'Values (JSON object; this global has no blueprint)'), json),
    note, h('div', { class: 'actions' }, canEdit ? save : message('muted', 'You may view but not edit globals.')));
  formEl.addEventListener('input', () => { ctx.dirty = true; });
  formEl.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    let values;
    if (form) {
      form.clearErrors();
      const bad = form.validate();
      if (Object.keys(bad).length) return show(note, message('error', 'Some fields need attention before saving.'), fieldErrors(form.showErrors(bad)));
      // PUT replaces the whole file: keep the keys the blueprint does not know, drop emptied fields.
      values = { ...stored, ...form.values() };
      for (const c of form.controls) {
        const v = values[c.def.handle];
        if (!Object.hasOwn(form.values(), c.def.handle) || v === null) delete values[c.def.handle];
      }
    } else {
      const [v, bad] = parseJSON(json.value, 'object');
      if (bad) return show(note, message('error', bad));
      values = v;
    }
    save.disabled = true;
    try {
      const out = await api('PUT', `/globals/${enc(handle)}`, { json: values, headers: etag ? { 'If-Match': etag } : {} });
      etag = out.headers.get('ETag');
      ctx.dirty = false;
      await render(ctx, view, handle, `Saved at ${new Date().toLocaleTimeString()}.`);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'CONFLICT') {
        // Say what they changed: the keys whose stored values differ from what this page loaded.
        const theirs = await api('GET', `/globals/${enc(handle)}`).then((r) => r.body.data ?? {}).catch(() => null);
        const label = (k) => form?.controls.find((c) => c.def.handle === k)?.def.display || k;
        const changed = theirs ? [...new Set([...Object.keys(stored), ...Object.keys(theirs)])].filter((k) => JSON.stringify(stored[k]) !== JSON.stringify(theirs[k])).map(label) : [];
        show(note, h('div', { class: 'conflict', role: 'alert' }, h('p', { class: 'error' }, 'These values were changed by someone else after you opened them, so yours were not saved.'),
          changed.length ? h('p', {}, `They changed: ${changed.join(', ')}.`) : null,
          h('button', { type: 'button', class: 'secondary', onclick: () => { ctx.dirty = false; render(ctx, view, handle); } }, 'Reload the current values')));
      } else {
        const rest = form && err instanceof ApiError ? form.showErrors(err.fields) : err.fields;
        show(note, message('error', describe(err)), fieldErrors(rest));
      }
    } finally {
      save.disabled = false;
    }
  });
  show(view, h('p', { class: 'crumbs' }, ctx.link(ctx.url('/globals'), 'Globals'), ' / ', handle), h('h1', {}, title), formEl);
}
