// forms.js: the forms, a page of submissions as a table, and links to the exports.
import { api, apiPath, describe } from './api.js';
import { h, message, show, when } from './dom.js';

const enc = encodeURIComponent;
const perPage = 20;

/** cell shows a submitted value as text: lists joined, objects as JSON. */
function cell(v) {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(cell).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** detail shows one submission with every value, and deletes it. */
async function detail(ctx, view, handle, id) {
  const s = (await api('GET', `/forms/${enc(handle)}/submissions/${enc(id)}`)).body.data;
  const note = h('div', { class: 'notice', role: 'status' });
  show(view,
    h('p', { class: 'crumbs' }, ctx.link(ctx.url('/forms'), 'Forms'), ' / ', ctx.link(ctx.url(`/forms/${enc(handle)}`), handle), ' / ', id),
    h('h1', {}, `Submission of ${when(s.submittedAt)}`),
    h('dl', { class: 'facts' }, Object.entries(s.data ?? {}).map(([k, v]) => [h('dt', {}, k), h('dd', {}, cell(v))])),
    note,
    ctx.can('forms', 'delete') ? h('button', { type: 'button', class: 'danger', onclick: async () => {
      if (!confirm('Delete this submission? This cannot be undone.')) return;
      try {
        await api('DELETE', `/forms/${enc(handle)}/submissions/${enc(id)}`);
        ctx.navigate(ctx.url(`/forms/${enc(handle)}`), { replace: true });
      } catch (err) {
        show(note, message('error', describe(err)));
      }
    } }, 'Delete submission') : null);
}

export async function render(ctx, view, handle, q, id) {
  if (handle && id) return detail(ctx, view, handle, id);
  if (!handle) {
    const { body } = await api('GET', '/forms');
    show(view, h('h1', {}, 'Forms'),
      body.data.length
        ? h('ul', { class: 'cards' }, body.data.map((f) => h('li', {}, ctx.link(ctx.url(`/forms/${enc(f.handle)}`), f.title || f.handle))))
        : message('muted', 'This site has no forms that take submissions.'));
    return;
  }
  const page = Math.max(1, Number.parseInt(q.get('page') ?? '1', 10) || 1);
  const sort = q.get('sort') === 'oldest' ? 'oldest' : 'newest';
  const { body } = await api('GET', `/forms/${enc(handle)}/submissions?${new URLSearchParams({ page: String(page), perPage: String(perPage), sort })}`);
  const { submissions, total } = body.data;
  const keys = [...new Set(submissions.flatMap((s) => Object.keys(s.data ?? {})))].sort();
  const pageURL = (p, s = sort) => ctx.url(`/forms/${enc(handle)}?${new URLSearchParams({ page: String(p), sort: s })}`);
  const pages = Math.max(1, Math.ceil(total / perPage));

  show(view,
    h('p', { class: 'crumbs' }, ctx.link(ctx.url('/forms'), 'Forms'), ' / ', handle),
    h('div', { class: 'toolbar' },
      h('h1', {}, handle),
      h('span', { class: 'spacer' }),
      h('select', { 'aria-label': 'Order', onchange: (ev) => ctx.navigate(pageURL(1, ev.target.value)) },
        h('option', { value: 'newest', selected: sort === 'newest' }, 'Newest first'),
        h('option', { value: 'oldest', selected: sort === 'oldest' }, 'Oldest first')),
      h('a', { href: `${apiPath}/forms/${enc(handle)}/export/csv`, download: `${handle}.csv` }, 'Export CSV'),
      h('a', { href: `${apiPath}/forms/${enc(handle)}/export/json`, download: `${handle}.json` }, 'Export JSON')),
    submissions.length
      ? h('div', { class: 'scroll' }, h('table', {},
        h('thead', {}, h('tr', {}, h('th', {}, 'Submitted'), keys.map((k) => h('th', {}, k)))),
        h('tbody', {}, submissions.map((s) => h('tr', {}, h('td', {}, ctx.link(ctx.url(`/forms/${enc(handle)}/${enc(s.id)}`), when(s.submittedAt))), keys.map((k) => h('td', {}, cell(s.data?.[k]))))))))
      : message('muted', 'No submissions yet.'),
    h('div', { class: 'pager' },
      page > 1 ? ctx.link(pageURL(page - 1), '← Previous') : null,
      h('span', { class: 'muted' }, `Page ${page} of ${pages} (${total} submissions)`),
      page < pages ? ctx.link(pageURL(page + 1), 'Next →') : null));
}
