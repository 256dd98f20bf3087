// seo.js: SEO operations (docs/seo.md): redirects with their topology errors at the field they
// concern, the public 404s (most hit first, promoted to a redirect in one step), and audit reports
// whose issues link to the entry editor.
import { api, ApiError, describe } from './api.js';
import { fieldErrors, h, message, show, when } from './dom.js';

const enc = encodeURIComponent;

/** sections are the SEO screens the user may see: [path, title, capability]. */
export function sections(ctx) {
  return [['/seo/redirects', 'Redirects', 'seo-redirects'], ['/seo/not-found', '404s', 'seo-errors'], ['/seo/reports', 'SEO reports', 'seo-reports']]
    .filter(([, , res]) => ctx.can(res, 'view'));
}

/** tabs links the SEO screens, marking the current one. */
function tabs(ctx, here) {
  return h('nav', { class: 'subnav', 'aria-label': 'SEO' }, sections(ctx).map(([p, t]) => {
    const a = ctx.link(ctx.url(p), t);
    if (p === here) a.setAttribute('aria-current', 'page');
    return a;
  }));
}

/** render routes /seo/... : seg is what follows "seo". */
export async function render(ctx, view, seg, q) {
  const [part, id] = seg;
  if (!part) {
    const first = sections(ctx)[0];
    if (first) return ctx.navigate(ctx.url(first[0]), { replace: true });
    return show(view, h('h1', {}, 'SEO'), message('muted', 'Nothing here is open to you.'));
  }
  if (part === 'redirects' && ctx.can('seo-redirects', 'view')) return id ? redirectEditor(ctx, view, id, q) : redirectList(ctx, view, q);
  if (part === 'not-found' && ctx.can('seo-errors', 'view') && !id) return notFound(ctx, view);
  if (part === 'reports' && ctx.can('seo-reports', 'view')) return id ? report(ctx, view, id) : reports(ctx, view);
  return false;
}

/** sites returns the configured site handles (the first is the default). */
async function siteHandles() {
  try {
    return (await api('GET', '/seo/sites')).body.data.map((s) => s.site);
  } catch {
    return ['default'];
  }
}

async function redirectList(ctx, view, q, flash = null) {
  const { body } = await api('GET', '/seo/redirects');
  const search = (q.get('q') ?? '').trim();
  const s = search.toLowerCase();
  const list = search ? body.data.filter((r) => r.source.toLowerCase().includes(s) || r.destination.toLowerCase().includes(s)) : body.data;
  const box = h('input', { type: 'search', name: 'q', value: search, 'aria-label': 'Search sources and destinations', placeholder: 'Search…' });
  const base = ctx.url('/seo/redirects');
  show(view,
    h('div', { class: 'toolbar' }, h('h1', {}, 'Redirects'), h('span', { class: 'spacer' }),
      ctx.can('seo-redirects', 'edit') ? ctx.link(`${base}/_new`, 'New redirect') : null),
    tabs(ctx, '/seo/redirects'),
    h('form', { class: 'filters', role: 'search', onsubmit: (ev) => { ev.preventDefault(); ctx.navigate(box.value.trim() ? `${base}?q=${enc(box.value.trim())}` : base); } },
      box, h('button', { type: 'submit', class: 'secondary' }, 'Search')),
    h('div', { class: 'notice', role: 'status' }, flash),
    body.meta?.problems?.length ? message('error', `Some redirect files could not be read: ${body.meta.problems.join(', ')}`) : null,
    list.length ? h('div', { class: 'scroll' }, h('table', { class: 'redirects' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Source'), h('th', {}, 'Destination'), h('th', {}, 'Status'), h('th', {}, 'Site'))),
      h('tbody', {}, list.map((r) => h('tr', { 'data-id': r.id },
        h('td', {}, ctx.link(`${base}/${enc(r.id)}`, r.source)),
        h('td', {}, r.destination),
        h('td', {}, String(r.status), r.enabled ? '' : [' ', h('span', { class: 'badge' }, 'off')]),
        h('td', {}, r.site))))))
      : message('muted', search ? 'No redirects match.' : 'No redirects yet.'));
}

/** topologyField is the field a topology refusal concerns. */
function topologyField(rule) {
  return rule === 'duplicate-source' ? 'source' : 'destination';
}

async function redirectEditor(ctx, view, id, q) {
  const isNew = id === '_new';
  const [sites, cur] = await Promise.all([siteHandles(), isNew ? null : api('GET', `/seo/redirects/${enc(id)}`).then((r) => r.body.data)]);
  const r = cur ?? { id: '', site: sites[0], source: q.get('source') ?? '', destination: '', status: 301, enabled: true };
  const base = ctx.url('/seo/redirects');
  const canEdit = ctx.can('seo-redirects', 'edit');
  const errs = {};
  const field = (name, label, input, hint) => {
    input.id = `f-${name}`;
    errs[name] = h('div', { class: 'field-error', id: `err-${name}` });
    input.setAttribute('aria-describedby', `${hint ? `hint-${name} ` : ''}err-${name}`);
    return h('div', { class: 'field', 'data-field': name }, h('label', { for: input.id }, label), hint ? h('small', { class: 'help', id: `hint-${name}` }, hint) : null, input, errs[name]);
  };
  const site = h('select', { disabled: !canEdit }, sites.map((s) => h('option', { value: s, selected: s === r.site }, s)));
  const source = h('input', { type: 'text', value: r.source, spellcheck: 'false', disabled: !canEdit });
  const dest = h('input', { type: 'text', value: r.destination, spellcheck: 'false', disabled: !canEdit });
  const status = h('select', { disabled: !canEdit }, [[301, '301 Moved permanently'], [302, '302 Found'], [307, '307 Temporary'], [308, '308 Permanent']]
    .map(([v, t]) => h('option', { value: String(v), selected: v === r.status }, t)));
  const enabled = h('input', { type: 'checkbox', checked: r.enabled !== false, disabled: !canEdit, id: 'f-enabled' });
  const note = h('div', { class: 'notice', role: 'status' });
  const form = h('form', { class: 'editor', novalidate: true },
    field('site', 'Site', site),
    field('source', 'Source path', source, 'A path on the site, e.g. /old-page.'),
    field('destination', 'Destination', dest, 'A path on the site or a full URL.'),
    field('status', 'Status', status),
    h('div', { class: 'toggle redirect-enabled' }, enabled, h('label', { for: 'f-enabled' }, 'Enabled')),
    note,
    canEdit ? h('div', { class: 'actions' }, h('button', { type: 'submit' }, isNew ? 'Create redirect' : 'Save'),
      !isNew && ctx.can('seo-redirects', 'delete') ? h('button', { type: 'button', class: 'danger', onclick: remove }, 'Delete') : null) : null);
  form.addEventListener('input', () => { ctx.dirty = true; });
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    for (const e of Object.values(errs)) show(e);
    show(note);
    const body = { redirect: { id: r.id, site: site.value, source: source.value.trim(), destination: dest.value.trim(), status: Number(status.value), enabled: enabled.checked } };
    if (!isNew) body.expectedRevision = r.revision;
    try {
      const saved = (await api('POST', '/seo/redirects', { json: body })).body.data;
      ctx.dirty = false;
      if (isNew) return ctx.navigate(`${base}/${enc(saved.id)}`, { replace: true });
      await redirectEditor(ctx, view, id, q);
      show(view.querySelector('.notice'), message('ok', 'Saved.'));
    } catch (err) {
      showRedirectError(err);
    }
  });

  function showRedirectError(err) {
    const e = err instanceof ApiError ? err.error : {};
    const d = e.details ?? {};
    const rest = {};
    let first = null;
    for (const [k, msgs] of Object.entries(err.fields ?? {})) {
      if (errs[k]) { show(errs[k], [].concat(msgs).join(' ')); first ??= k; } else rest[k] = msgs;
    }
    if (typeof d.rule === 'string' && d.rule) {
      const k = topologyField(d.rule);
      const others = (Array.isArray(d.redirects) ? d.redirects : []).filter((x) => x !== r.id && x !== d.redirects?.[0]);
      show(errs[k], describe(err).replace(/[.!?]?$/, '.'), others.length ? [' Involved: ', others.map((o, i) => [i ? ', ' : '', ctx.link(`${base}/${enc(o)}`, o)])] : null,
        h('span', { class: 'muted' }, ` (${d.rule})`));
      first ??= k;
    }
    // The message is already at its field: the note only says the redirect was not saved.
    const text = err instanceof ApiError && err.code === 'SEO_REVISION_CONFLICT' ? `${describe(err)} Reload to see the current version.`
      : first ? 'Not saved: see the message at the field.' : describe(err);
    show(note, message('error', text), fieldErrors(rest));
    if (first) document.getElementById(`f-${first}`)?.focus();
  }

  async function remove() {
    if (!confirm(`Delete the redirect from ${r.source}?`)) return;
    try {
      await api('DELETE', `/seo/redirects/${enc(r.id)}?expectedRevision=${enc(r.revision ?? '')}`);
      ctx.dirty = false;
      ctx.navigate(base, { replace: true });
    } catch (err) {
      show(note, message('error', describe(err)));
    }
  }

  show(view, h('p', { class: 'crumbs' }, ctx.link(base, 'Redirects'), ' / ', isNew ? 'New redirect' : r.source),
    h('h1', {}, isNew ? 'New redirect' : `Redirect ${r.source}`), form);
}

async function notFound(ctx, view, flash = null) {
  const { body } = await api('GET', '/seo/not-found?sort=hits&perPage=100');
  const canPromote = ctx.can('seo-redirects', 'create');
  const note = h('div', { class: 'notice', role: 'status' }, flash);
  const row = (o) => {
    const cell = h('td', {});
    const promote = () => {
      const input = h('input', { type: 'text', id: `dest-${o.opaqueId}`, spellcheck: 'false', placeholder: '/new-page', 'aria-describedby': `perr-${o.opaqueId}` });
      const err = h('div', { class: 'field-error', id: `perr-${o.opaqueId}` });
      const form = h('form', { class: 'row promote', novalidate: true },
        h('label', { for: input.id }, `Redirect ${o.path} to`), input, h('button', { type: 'submit' }, 'Create redirect'),
        h('button', { type: 'button', class: 'secondary', onclick: () => { show(cell, actions()); cell.querySelector('button')?.focus(); } }, 'Cancel'), err);
      form.addEventListener('submit', async (ev) => {
        ev.preventDefault();
        show(err);
        try {
          await api('POST', '/seo/not-found/promote', { json: { site: o.site, source: o.path, destination: input.value.trim(), opaqueId: o.opaqueId } });
          await notFound(ctx, view, message('ok', `Redirected ${o.path} to ${input.value.trim()}.`));
        } catch (e) {
          const d = e instanceof ApiError ? e.error.details ?? {} : {};
          show(err, describe(e), d.rule ? ` (${d.rule})` : '', fieldErrors(e.fields));
          input.focus();
        }
      });
      show(cell, form);
      input.focus();
    };
    const remove = async () => {
      try {
        await api('DELETE', `/seo/not-found/${enc(o.opaqueId)}`);
        await notFound(ctx, view, message('ok', `Removed ${o.path} from the list.`));
      } catch (e) {
        show(note, message('error', describe(e)));
      }
    };
    const actions = () => [canPromote ? h('button', { type: 'button', class: 'secondary', onclick: promote }, 'Redirect…') : null,
      ctx.can('seo-errors', 'delete') ? h('button', { type: 'button', class: 'secondary danger-text', 'aria-label': `Dismiss ${o.path}`, onclick: remove }, 'Dismiss') : null];
    show(cell, actions());
    return h('tr', { 'data-path': o.path },
      h('td', {}, h('code', {}, o.path), o.query ? h('span', { class: 'muted' }, ' ?…') : null),
      h('td', { class: 'num' }, String(o.hits)),
      h('td', {}, when(o.lastSeen)),
      h('td', {}, o.referrerOrigin ?? ''), cell);
  };
  show(view, h('h1', {}, '404s'), tabs(ctx, '/seo/not-found'),
    h('p', { class: 'muted' }, `Public addresses that found nothing, most hit first (${body.meta?.total ?? body.data.length} kept).`),
    note,
    body.data.length ? h('div', { class: 'scroll' }, h('table', { class: 'not-found' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Path'), h('th', { class: 'num' }, 'Hits'), h('th', {}, 'Last seen'), h('th', {}, 'Referrer'), h('th', {}, h('span', { class: 'sr-only' }, 'Actions')))),
      h('tbody', {}, body.data.map(row)))) : message('muted', 'No 404s recorded.'));
}

async function reports(ctx, view, flash = null) {
  const { body } = await api('GET', '/seo/reports?perPage=20');
  const note = h('div', { class: 'notice', role: 'status' }, flash);
  const runBtn = ctx.can('seo-reports', 'edit') ? h('button', { type: 'button', onclick: run }, 'Run a report') : null;
  async function run() {
    runBtn.disabled = true;
    show(note, message('muted', 'Auditing the published pages…'));
    try {
      const rep = (await api('POST', '/seo/reports/run', { json: {} })).body.data;
      ctx.navigate(ctx.url(`/seo/reports/${enc(rep.id)}`));
    } catch (err) {
      runBtn.disabled = false;
      show(note, message('error', describe(err)));
    }
  }
  show(view, h('div', { class: 'toolbar' }, h('h1', {}, 'SEO reports'), h('span', { class: 'spacer' }), runBtn),
    tabs(ctx, '/seo/reports'), note,
    body.data.length ? h('div', { class: 'scroll' }, h('table', {},
      h('thead', {}, h('tr', {}, h('th', {}, 'Report'), h('th', {}, 'Site'), h('th', { class: 'num' }, 'Score'), h('th', {}, 'Issues'))),
      h('tbody', {}, body.data.map((r) => h('tr', {},
        h('td', {}, ctx.link(ctx.url(`/seo/reports/${enc(r.id)}`), when(r.createdAt))),
        h('td', {}, r.site), h('td', { class: 'num' }, String(r.score)),
        h('td', {}, summaryText(r.summary)))))))
      : message('muted', 'No reports yet.'));
}

function summaryText(s = {}) {
  return ['critical', 'error', 'warning', 'info'].filter((k) => s[k]).map((k) => `${s[k]} ${k}`).join(', ') || 'none';
}

/** subjectLink links an issue's subject to where it is edited. */
function subjectLink(ctx, sub) {
  const [a, b] = String(sub.id ?? '').split('/');
  if (sub.type === 'entry' && a && b) return ctx.link(ctx.url(`/entries/${enc(a)}/${enc(b)}`), sub.id);
  if (sub.type === 'term' && a && b) return ctx.link(ctx.url(`/taxonomies/${enc(a)}/${enc(b)}`), sub.id);
  if (sub.type === 'navigation') return ctx.link(ctx.url(`/navigation/${enc(sub.id)}`), sub.id);
  if (sub.type === 'redirect') return ctx.link(ctx.url(`/seo/redirects/${enc(sub.id)}`), sub.id);
  return h('span', {}, sub.id ?? '');
}

async function report(ctx, view, id) {
  const r = (await api('GET', `/seo/reports/${enc(id)}`)).body.data;
  const groups = new Map();
  for (const i of r.issues ?? []) {
    if (!groups.has(i.ruleId)) groups.set(i.ruleId, []);
    groups.get(i.ruleId).push(i);
  }
  show(view, h('p', { class: 'crumbs' }, ctx.link(ctx.url('/seo/reports'), 'SEO reports'), ' / ', when(r.createdAt)),
    h('div', { class: 'toolbar' }, h('h1', {}, `Report: score ${r.score}`), h('span', { class: 'spacer' }), h('span', { class: 'muted' }, `site ${r.site}`)),
    h('p', {}, `${r.records} published page${r.records === 1 ? '' : 's'} audited; ${summaryText(r.summary)}.`, r.truncated ? ' Only the first issues were kept.' : ''),
    groups.size ? [...groups].map(([rule, list]) => h('section', { class: 'editor report-rule', 'data-rule': rule },
      h('h2', {}, h('code', {}, rule), ` · ${list.length} issue${list.length === 1 ? '' : 's'} `, h('span', { class: `badge sev-${list[0].severity}` }, list[0].severity)),
      list[0].recommendation ? h('p', { class: 'muted' }, list[0].recommendation) : null,
      h('ul', { class: 'plain' }, list.map((i) => h('li', {}, subjectLink(ctx, i.subject), ': ', i.message, i.field ? [' ', h('code', {}, i.field)] : null)))))
      : message('ok', 'No issues found.'));
}
