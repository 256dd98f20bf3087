// globals.js: pick a global and edit its values as JSON, saved with If-Match so that a change
// made meanwhile by someone else is refused instead of overwritten.
import { api, ApiError, describe } from './api.js';
import { fieldErrors, h, message, parseJSON, pretty, show } from './dom.js';

const enc = encodeURIComponent;

export async function render(ctx, view, handle) {
  if (!handle) {
    const { body } = await api('GET', '/globals');
    show(view, h('h1', {}, 'Globals'),
      body.data.length
        ? h('ul', { class: 'cards' }, body.data.map((g) => h('li', {}, ctx.link(ctx.url(`/globals/${enc(g.handle)}`), g.title || g.handle))))
        : message('muted', 'This site defines no globals.'));
    return;
  }
  const res = await api('GET', `/globals/${enc(handle)}`);
  let etag = res.headers.get('ETag');
  const values = h('textarea', { rows: 18, class: 'mono', value: pretty(res.body.data), spellcheck: 'false', 'aria-label': 'Values (JSON object)' });
  const note = h('div', { class: 'notice' });
  const save = h('button', { type: 'submit' }, 'Save');
  const form = h('form', { class: 'editor', novalidate: true },
    h('div', { class: 'field' }, h('label', {}, 'Values (JSON object of field handle → value)'), values),
    note, h('div', { class: 'actions' }, ctx.can('globals', 'edit') ? save : message('muted', 'You may view but not edit globals.')));
  form.addEventListener('input', () => { ctx.dirty = true; });
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const [v, bad] = parseJSON(values.value, 'object');
    if (bad) return show(note, message('error', bad));
    save.disabled = true;
    try {
      const out = await api('PUT', `/globals/${enc(handle)}`, { json: v, headers: etag ? { 'If-Match': etag } : {} });
      etag = out.headers.get('ETag');
      values.value = pretty(out.body.data);
      ctx.dirty = false;
      show(note, message('ok', `Saved at ${new Date().toLocaleTimeString()}.`));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'CONFLICT') {
        show(note, message('error', 'These values were changed by someone else after you opened them, so yours were not saved. Reload to see the current values.'),
          h('button', { type: 'button', class: 'secondary', onclick: () => { ctx.dirty = false; render(ctx, view, handle); } }, 'Reload'));
      } else {
        show(note, message('error', describe(err)), fieldErrors(err.fields));
      }
    } finally {
      save.disabled = false;
    }
  });
  show(view, h('p', { class: 'crumbs' }, ctx.link(ctx.url('/globals'), 'Globals'), ' / ', handle), h('h1', {}, handle), form);
}
