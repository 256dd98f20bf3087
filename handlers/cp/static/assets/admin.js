// admin.js: users and roles (with the permission matrix), the signed-in user's account, hooks
// and settings. Every save sends the record's ETag as If-Match, so a change made meanwhile is a
// 409 that offers a reload instead of being overwritten.
import { api, ApiError, describe } from './api.js';
import { fieldErrors, h, message, show, when } from './dom.js';

const enc = encodeURIComponent;
const resources = ['collections', 'entries', 'assets', 'users', 'globals', 'taxonomies', 'forms', 'navigation', 'settings'];
const actions = ['view', 'create', 'edit', 'delete', 'publish'];

/** input is a labelled field with an error slot: {el, input, error}. */
function input(name, label, attrs = {}, hint = '') {
  const id = `f-${name}`;
  const error = h('div', { class: 'field-error', id: `err-${name}` });
  const i = h(attrs.tag ?? 'input', { type: 'text', ...attrs, tag: null, id, name, 'aria-describedby': `${hint ? `hint-${name} ` : ''}err-${name}` });
  return { input: i, error, el: h('div', { class: 'field', 'data-field': name }, h('label', { for: id }, label), hint ? h('small', { class: 'help', id: `hint-${name}` }, hint) : null, i, error) };
}

/** fail shows an API error: field messages at their inputs, the rest in note. */
function fail(err, note, fields, reload) {
  for (const f of Object.values(fields)) show(f.error);
  if (err instanceof ApiError && err.code === 'CONFLICT' && reload) {
    return show(note, h('div', { class: 'conflict', role: 'alert' }, h('p', { class: 'error' }, `${describe(err)} Someone else changed this after you opened it; your change was not saved.`),
      h('button', { type: 'button', class: 'secondary', onclick: reload }, 'Reload the current version')));
  }
  const rest = {};
  for (const [k, msgs] of Object.entries(err.fields ?? {})) {
    if (fields[k]) show(fields[k].error, [].concat(msgs).join(' ')); else rest[k] = msgs;
  }
  show(note, message('error', describe(err)), fieldErrors(rest));
  Object.values(fields).find((f) => f.error.textContent)?.input.focus();
}

function roleBoxes(roles, chosen, disabled = false) {
  return h('fieldset', { class: 'group', 'data-field': 'roles' }, h('legend', {}, 'Roles'),
    h('div', { class: 'checks' }, roles.map((r) => h('label', { class: 'inline' },
      h('input', { type: 'checkbox', name: 'roles', value: r.handle, checked: chosen.includes(r.handle), disabled }), r.display || r.handle))));
}
const ticked = (el) => [...el.querySelectorAll('input[name=roles]:checked')].map((i) => i.value);

/** users draws the list of users, a user's editor (id), or the new-user form (id "_new"). */
export async function users(ctx, view, id) {
  if (!id) {
    const { body } = await api('GET', '/users');
    show(view,
      h('div', { class: 'toolbar' }, h('h1', {}, 'Users'), h('span', { class: 'spacer' }),
        ctx.can('users', 'view') ? ctx.link(ctx.url('/roles'), 'Roles') : null,
        ctx.can('users', 'create') ? ctx.link(ctx.url('/users/_new'), 'New user') : null),
      h('div', { class: 'scroll' }, h('table', {},
        h('thead', {}, h('tr', {}, h('th', {}, 'Name'), h('th', {}, 'Email'), h('th', {}, 'Roles'), h('th', {}, 'Last sign-in'))),
        h('tbody', {}, body.data.map((u) => h('tr', {},
          h('td', {}, ctx.link(ctx.url(`/users/${enc(u.id)}`), u.name || u.id)), h('td', {}, u.email), h('td', {}, (u.roles ?? []).join(', ')), h('td', {}, u.lastLogin ? when(u.lastLogin) : 'never')))))));
    return;
  }
  const isNew = id === '_new';
  const [roles, res] = await Promise.all([api('GET', '/roles').then((r) => r.body.data), isNew ? null : api('GET', `/users/${enc(id)}`)]);
  const u = res ? res.body.data : { id: '', name: '', email: '', roles: [] };
  const etag = res?.headers.get('ETag');
  const f = {
    name: input('name', 'Name', { value: u.name, autocomplete: 'off' }),
    email: input('email', 'Email', { type: 'email', value: u.email, autocomplete: 'off' }),
  };
  if (isNew) {
    f.id = input('id', 'User id', { spellcheck: 'false' }, 'Optional: letters, digits, - and _. Made up when empty.');
    f.password = input('password', 'Password', { type: 'password', autocomplete: 'new-password' }, 'At least 12 characters.');
  }
  const boxes = roleBoxes(roles, u.roles ?? [], !ctx.can('users', 'edit') && !isNew);
  const note = h('div', { class: 'notice', role: 'status' });
  const form = h('form', { class: 'editor', novalidate: true }, isNew ? f.id.el : null, f.name.el, f.email.el, isNew ? f.password.el : null, boxes, note,
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, isNew ? 'Create user' : 'Save'),
      !isNew && ctx.can('users', 'delete') && id !== ctx.me.id ? h('button', { type: 'button', class: 'danger', onclick: remove }, 'Delete user') : null));
  form.addEventListener('input', () => { ctx.dirty = true; });
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const body = { name: f.name.input.value.trim(), email: f.email.input.value.trim(), roles: ticked(boxes) };
    if (isNew) {
      if (f.id.input.value.trim()) body.id = f.id.input.value.trim();
      body.password = f.password.input.value;
    }
    try {
      const out = isNew ? await api('POST', '/users', { json: body }) : await api('PUT', `/users/${enc(id)}`, { json: body, headers: etag ? { 'If-Match': etag } : {} });
      ctx.dirty = false;
      const saved = out.body.data;
      if (isNew) return ctx.navigate(ctx.url(`/users/${enc(saved.id)}`), { replace: true });
      await users(ctx, view, id);
      show(view.querySelector('.notice'), message('ok', `Saved ${saved.name || saved.id}.`));
    } catch (err) {
      fail(err, note, f, () => { ctx.dirty = false; users(ctx, view, id); });
    }
  });

  // Setting someone's password ends all their sessions (the API does it with every credential change).
  let pw = null;
  if (!isNew && ctx.can('users', 'edit') && id !== ctx.me.id) {
    const p = input('new-password', 'New password', { type: 'password', autocomplete: 'new-password' }, 'At least 12 characters. Signs the user out everywhere.');
    const pnote = h('div', { class: 'notice', role: 'status' });
    pw = h('form', { class: 'editor', novalidate: true }, h('h2', {}, 'Reset password'), p.el, pnote, h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'secondary' }, 'Set password and sign out everywhere')));
    pw.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      try {
        await api('POST', `/users/${enc(id)}/password`, { json: { newPassword: p.input.value } });
        p.input.value = '';
        show(p.error);
        show(pnote, message('ok', 'Password set; their sessions have ended.'));
      } catch (err) {
        fail(err, pnote, { newPassword: p });
      }
    });
  }
  const sessions = !isNew && (id === ctx.me.id || ctx.can('users', 'edit')) ? h('section', { class: 'sessions-panel' }) : null;
  show(view, h('p', { class: 'crumbs' }, ctx.link(ctx.url('/users'), 'Users'), ' / ', isNew ? 'New user' : u.id),
    h('h1', {}, isNew ? 'New user' : u.name || u.id),
    isNew ? null : h('p', { class: 'muted' }, `Created ${when(u.createdAt)} · last sign-in ${u.lastLogin ? when(u.lastLogin) : 'never'}`),
    form, pw, sessions);
  if (sessions) await sessionsPanel(sessions, id === ctx.me.id ? 'me' : id);

  async function remove() {
    if (!confirm(`Delete the user ${u.name || u.id}? They are signed out at once.`)) return;
    try {
      await api('DELETE', `/users/${enc(id)}`);
      ctx.dirty = false;
      ctx.navigate(ctx.url('/users'), { replace: true });
    } catch (err) {
      fail(err, note, f);
    }
  }
}

/** matrix is the permission editor: one checkbox per resource and action for unscoped grants;
 * grants scoped to one collection (or form...) are listed and kept as they are. */
function matrix(perms, disabled) {
  const has = (r, a) => perms.some((p) => !p.scope && p.resource === r && (p.actions ?? []).includes(a));
  const table = h('table', { class: 'matrix' },
    h('caption', {}, 'Permissions (every scope)'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Resource'), actions.map((a) => h('th', { scope: 'col' }, a)))),
    h('tbody', {}, resources.map((r) => h('tr', {}, h('th', { scope: 'row' }, r),
      actions.map((a) => h('td', {}, h('input', { type: 'checkbox', 'data-resource': r, 'data-action': a, checked: has(r, a), disabled, 'aria-label': `${r}: ${a}` })))))));
  const scoped = perms.filter((p) => p.scope);
  return {
    el: h('div', { class: 'scroll' }, table,
      scoped.length ? h('p', { class: 'muted' }, 'Scoped grants, kept as they are: ', scoped.map((p) => `${p.resource} (${p.scope}): ${(p.actions ?? []).join(', ')}`).join('; ')) : null),
    value() {
      const out = [];
      for (const r of resources) {
        const acts = actions.filter((a) => table.querySelector(`input[data-resource="${r}"][data-action="${a}"]`).checked);
        if (acts.length) out.push({ resource: r, actions: acts });
      }
      return [...out, ...scoped];
    },
  };
}

/** roles draws the roles, one role's editor, or a new role (handle "_new"). */
export async function roles(ctx, view, handle) {
  if (!handle) {
    const { body } = await api('GET', '/roles');
    show(view, h('p', { class: 'crumbs' }, ctx.link(ctx.url('/users'), 'Users'), ' / Roles'),
      h('div', { class: 'toolbar' }, h('h1', {}, 'Roles'), h('span', { class: 'spacer' }), ctx.can('users', 'edit') ? ctx.link(ctx.url('/roles/_new'), 'New role') : null),
      h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Role'), h('th', {}, 'Handle'), h('th', {}, 'Grants'))),
        h('tbody', {}, body.data.map((r) => h('tr', {}, h('td', {}, ctx.link(ctx.url(`/roles/${enc(r.handle)}`), r.display || r.handle)), h('td', {}, h('code', {}, r.handle)),
          h('td', {}, (r.permissions ?? []).map((p) => `${p.resource}${p.scope ? ` (${p.scope})` : ''}: ${(p.actions ?? []).join(' ')}`).join('; ')))))));
    return;
  }
  const isNew = handle === '_new';
  const res = isNew ? null : await api('GET', `/roles/${enc(handle)}`);
  const role = res ? res.body.data : { handle: '', display: '', permissions: [] };
  const etag = res?.headers.get('ETag');
  const locked = role.handle === 'admin' || !ctx.can('users', 'edit');
  const f = { display: input('display', 'Name', { value: role.display, disabled: locked }) };
  if (isNew) f.handle = input('handle', 'Handle', { spellcheck: 'false' }, 'Letters, digits, - and _; it cannot be changed later.');
  const m = matrix(role.permissions ?? [], locked);
  const note = h('div', { class: 'notice', role: 'status' });
  const form = h('form', { class: 'editor', novalidate: true }, isNew ? f.handle.el : null, f.display.el, m.el, note,
    locked ? message('muted', role.handle === 'admin' ? 'The admin role has every permission and cannot be changed.' : 'You may view but not change roles.')
      : h('div', { class: 'actions' }, h('button', { type: 'submit' }, isNew ? 'Create role' : 'Save'),
        !isNew && ctx.can('users', 'delete') ? h('button', { type: 'button', class: 'danger', onclick: remove }, 'Delete role') : null));
  form.addEventListener('input', () => { ctx.dirty = true; });
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const body = { display: f.display.input.value.trim(), permissions: m.value() };
    try {
      if (isNew) {
        body.handle = f.handle.input.value.trim();
        const out = await api('POST', '/roles', { json: body });
        ctx.dirty = false;
        return ctx.navigate(ctx.url(`/roles/${enc(out.body.data.handle)}`), { replace: true });
      }
      await api('PUT', `/roles/${enc(handle)}`, { json: body, headers: etag ? { 'If-Match': etag } : {} });
      ctx.dirty = false;
      await roles(ctx, view, handle);
      show(view.querySelector('.notice'), message('ok', 'Saved.'));
    } catch (err) {
      fail(err, note, f, () => { ctx.dirty = false; roles(ctx, view, handle); });
    }
  });
  show(view, h('p', { class: 'crumbs' }, ctx.link(ctx.url('/users'), 'Users'), ' / ', ctx.link(ctx.url('/roles'), 'Roles'), ' / ', isNew ? 'New role' : role.handle),
    h('h1', {}, isNew ? 'New role' : role.display || role.handle), form);

  async function remove() {
    if (!confirm(`Delete the role ${role.display || role.handle}?`)) return;
    try {
      await api('DELETE', `/roles/${enc(handle)}`);
      ctx.dirty = false;
      ctx.navigate(ctx.url('/roles'), { replace: true });
    } catch (err) {
      const users = err.error?.users;
      fail(err, note, f);
      if (Array.isArray(users)) note.append(message('muted', `Still assigned to: ${users.join(', ')}.`));
    }
  }
}

/** account is the signed-in user's own page: name and email, and a password change. */
export async function account(ctx, view) {
  const res = await api('GET', '/users/me');
  const me = res.body.data;
  let etag = res.headers.get('ETag');
  const f = { name: input('name', 'Name', { value: me.name, autocomplete: 'name' }), email: input('email', 'Email', { type: 'email', value: me.email, autocomplete: 'email' }) };
  const note = h('div', { class: 'notice', role: 'status' });
  const form = h('form', { class: 'editor', novalidate: true }, f.name.el, f.email.el, note, h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Save')));
  form.addEventListener('input', () => { ctx.dirty = true; });
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    try {
      const out = await api('PUT', '/users/me', { json: { name: f.name.input.value.trim(), email: f.email.input.value.trim() }, headers: etag ? { 'If-Match': etag } : {} });
      etag = out.headers.get('ETag') ?? null;
      ctx.dirty = false;
      ctx.me = out.body.data;
      document.getElementById('user-name').textContent = ctx.me.name || ctx.me.email;
      for (const x of Object.values(f)) show(x.error);
      show(note, message('ok', 'Saved.'));
    } catch (err) {
      fail(err, note, f, () => { ctx.dirty = false; account(ctx, view); });
    }
  });
  const p = {
    currentPassword: input('current-password', 'Current password', { type: 'password', autocomplete: 'current-password' }),
    newPassword: input('new-password', 'New password', { type: 'password', autocomplete: 'new-password' }, 'At least 12 characters. Your other sessions end; this one stays signed in.'),
  };
  const pnote = h('div', { class: 'notice', role: 'status' });
  const pw = h('form', { class: 'editor', novalidate: true }, h('h2', {}, 'Change password'), p.currentPassword.el, p.newPassword.el, pnote,
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Change password')));
  pw.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    try {
      await api('POST', '/users/me/password', { json: { currentPassword: p.currentPassword.input.value, newPassword: p.newPassword.input.value } });
      p.currentPassword.input.value = '';
      p.newPassword.input.value = '';
      for (const x of Object.values(p)) show(x.error);
      show(pnote, message('ok', 'Password changed.'));
    } catch (err) {
      fail(err, pnote, p);
    }
  });
  const sessions = h('section', { class: 'sessions-panel' });
  show(view, h('h1', {}, 'Your account'), h('p', { class: 'muted' }, `Roles: ${(me.roles ?? []).join(', ') || 'none'}`), form, pw, sessions);
  await sessionsPanel(sessions, 'me');
}

/** device names the browser and system of a User-Agent string in a few words ("Firefox on
 * Linux"), or returns it unchanged when it is not a browser's. */
export function device(ua) {
  if (!ua) return 'Unknown device';
  const browser = [[/Edg\//, 'Edge'], [/OPR\//, 'Opera'], [/Firefox\//, 'Firefox'], [/(Chrome|Chromium|HeadlessChrome)\//, 'Chrome'], [/Safari\//, 'Safari']].find(([re]) => re.test(ua))?.[1];
  const os = [[/Android/, 'Android'], [/iPhone|iPad|iOS/, 'iOS'], [/Windows/, 'Windows'], [/Mac OS X|Macintosh/, 'macOS'], [/CrOS/, 'ChromeOS'], [/Linux/, 'Linux']].find(([re]) => re.test(ua))?.[1];
  return browser ? (os ? `${browser} on ${os}` : browser) : ua;
}

/** sessionsPanel fills section with a user's live sessions ("me" for the caller's own): when each
 * began and was last seen, from which browser and address, the current one marked, and buttons
 * that end one or all the others. */
async function sessionsPanel(section, who) {
  const path = `/users/${enc(who)}/sessions`;
  const note = h('div', { class: 'notice', role: 'status' });
  let list;
  try {
    list = (await api('GET', path)).body.data ?? [];
  } catch (err) {
    return show(section, h('h2', {}, 'Sessions'), message('error', describe(err)));
  }
  const self = who === 'me';
  const redraw = async (text) => {
    await sessionsPanel(section, who);
    show(section.querySelector('.notice'), message('ok', text));
    section.querySelector('h2').focus();
  };
  const end = (s) => h('button', {
    type: 'button', class: 'secondary danger-text', 'aria-label': `End the session of ${device(s.userAgent)} signed in ${when(s.createdAt)}`,
    onclick: async () => {
      try { await api('DELETE', `${path}/${enc(s.id)}`); await redraw(`Ended the session of ${device(s.userAgent)}.`); } catch (err) { show(note, message('error', describe(err))); }
    },
  }, 'End session');
  const others = list.filter((s) => !s.current).length;
  const rows = list.map((s) => h('tr', { 'data-session': s.id, class: s.current ? 'current' : null },
    h('td', {}, h('span', { title: s.userAgent ?? '' }, device(s.userAgent)), s.current ? [' ', h('strong', { class: 'badge' }, 'This session')] : null),
    h('td', {}, s.address ?? ''), h('td', {}, s.createdAt ? when(s.createdAt) : 'unknown'), h('td', {}, s.lastSeenAt ? when(s.lastSeenAt) : '–'),
    h('td', {}, when(s.expiresAt)), h('td', {}, s.current ? null : end(s))));
  show(section, h('h2', { tabindex: '-1', id: 'sessions-title' }, 'Sessions'),
    h('p', { class: 'muted' }, self ? 'Where you are signed in. End a session you do not recognise, then change your password.' : 'Where this user is signed in.'),
    note,
    rows.length ? h('div', { class: 'scroll' }, h('table', { 'aria-labelledby': 'sessions-title' },
      h('thead', {}, h('tr', {}, ['Device', 'Address', 'Signed in', 'Last seen', 'Expires'].map((t) => h('th', { scope: 'col' }, t)), h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Actions')))), h('tbody', {}, rows)))
      : message('muted', 'No active sessions.'),
    others ? h('div', { class: 'actions' }, h('button', {
      type: 'button', class: 'secondary', onclick: async () => {
        if (!confirm(self ? 'Sign out of every other session?' : 'End every session of this user?')) return;
        try {
          const n = (await api('DELETE', path)).body.data?.revoked ?? 0;
          await redraw(`Ended ${n} session${n === 1 ? '' : 's'}.`);
        } catch (err) { show(note, message('error', describe(err))); }
      },
    }, self ? 'Sign out everywhere else' : 'End all sessions')) : null);
}

/** hooks lists the installed WebAssembly hooks and uploads one; the server checks it first. */
export async function hooks(ctx, view, flash = null) {
  const { body } = await api('GET', '/hooks');
  const canEdit = ctx.can('settings', 'edit');
  const rows = body.data.map((k) => h('tr', {},
    h('td', {}, h('code', {}, k.name)), h('td', { class: 'num' }, `${k.size} B`), h('td', {}, h('code', { title: k.sha256 }, String(k.sha256).slice(0, 12))),
    h('td', {}, k.uploadedBy), h('td', {}, when(k.uploadedAt)),
    h('td', {}, canEdit ? h('button', { type: 'button', class: 'secondary danger-text', 'aria-label': `Delete hook ${k.name}`, onclick: async () => {
      if (!confirm(`Delete the hook ${k.name}? Rules that call it will refuse saves.`)) return;
      try { await api('DELETE', `/hooks/${enc(k.name)}`); await hooks(ctx, view, message('ok', `Deleted ${k.name}.`)); } catch (err) { show(note, message('error', describe(err))); }
    } }, 'Delete') : null)));
  const note = h('div', { class: 'notice', role: 'status' }, flash);
  let upload = null;
  if (canEdit) {
    const name = input('hook-name', 'Hook name', { spellcheck: 'false', pattern: '[a-z0-9][a-z0-9_-]*' }, 'Lowercase letters, digits, - and _; rules call it as hook:<name>.');
    const file = input('hook-file', 'Module (.wasm)', { type: 'file', accept: '.wasm,application/wasm' });
    file.input.addEventListener('change', () => {
      const n = file.input.files[0]?.name.replace(/\.wasm$/i, '').toLowerCase().replace(/[^a-z0-9_-]+/g, '-');
      if (n && !name.input.value) name.input.value = n;
    });
    upload = h('form', { class: 'editor', novalidate: true }, h('h2', {}, 'Upload a hook'), file.el, name.el,
      h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Upload and check')));
    upload.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const f = file.input.files[0];
      const n = name.input.value.trim();
      if (!f || !n) return show(note, message('error', 'Choose a .wasm file and give the hook a name.'));
      show(note, message('muted', `Checking ${f.name}…`));
      try {
        const out = await api('PUT', `/hooks/${enc(n)}`, { raw: f, headers: { 'Content-Type': 'application/wasm' } });
        const k = out.body.data;
        await hooks(ctx, view, h('div', { class: 'hook-result' }, message('ok', `${out.status === 201 ? 'Installed' : 'Replaced'} ${k.name}: it passed the checks (hook ABI v${k.abiVersion}, ${k.size} bytes, sha256 ${String(k.sha256).slice(0, 12)}…).`)));
      } catch (err) {
        const d = err.error ?? {};
        show(note, h('div', { class: 'hook-result' }, message('error', `Not installed: ${describe(err)}`),
          d.stderr ? h('pre', { class: 'mono' }, String(d.stderr)) : null, d.limit ? h('p', { class: 'muted' }, `Limit: ${JSON.stringify(d.limit)}`) : null));
      }
    });
  }
  show(view, h('h1', {}, 'Validation hooks'),
    h('p', { class: 'muted' }, 'WebAssembly modules that blueprint rules call as hook:<name>. Each upload is checked (size, structure, imports, a smoke call) before it is stored.'),
    note,
    rows.length ? h('div', { class: 'scroll' }, h('table', {}, h('thead', {}, h('tr', {}, ['Name', 'Size', 'SHA-256', 'Uploaded by', 'Uploaded'].map((t) => h('th', {}, t)), h('th', {}, h('span', { class: 'sr-only' }, 'Actions')))), h('tbody', {}, rows)))
      : message('muted', 'No hooks installed.'),
    upload);
}

/** settings edits content/settings.yaml: the three known keys, and the rest as JSON. */
export async function settings(ctx, view) {
  const res = await api('GET', '/settings');
  const etag = res.headers.get('ETag');
  const d = res.body.data ?? {};
  const known = ['site_name', 'locale', 'timezone'];
  const f = {
    site_name: input('site_name', 'Site name', { value: d.site_name ?? '' }),
    locale: input('locale', 'Locale', { value: d.locale ?? '' }, 'A language tag such as en or en-US.'),
    timezone: input('timezone', 'Time zone', { value: d.timezone ?? '' }, 'An IANA zone such as Europe/Paris.'),
  };
  const others = Object.fromEntries(Object.entries(d).filter(([k]) => !known.includes(k)));
  const extra = input('other', 'Other settings (JSON object)', { tag: 'textarea', class: 'mono', rows: 6, spellcheck: 'false', value: JSON.stringify(others, null, 2) });
  const note = h('div', { class: 'notice', role: 'status' });
  const can = ctx.can('settings', 'edit');
  const form = h('form', { class: 'editor', novalidate: true }, f.site_name.el, f.locale.el, f.timezone.el, extra.el, note,
    can ? h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Save')) : message('muted', 'You may view but not change settings.'));
  form.addEventListener('input', () => { ctx.dirty = true; });
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    let more;
    try { more = JSON.parse(extra.input.value || '{}'); } catch (e) { return show(extra.error, `Not valid JSON: ${e.message}`); }
    if (!more || typeof more !== 'object' || Array.isArray(more)) return show(extra.error, 'Must be a JSON object.');
    const body = { ...more };
    for (const k of Object.keys(others)) if (!(k in more)) body[k] = null;
    for (const k of known) body[k] = f[k].input.value.trim() || null;
    try {
      await api('PUT', '/settings', { json: body, headers: etag ? { 'If-Match': etag } : {} });
      ctx.dirty = false;
      await settings(ctx, view);
      show(view.querySelector('.notice'), message('ok', 'Saved.'));
    } catch (err) {
      fail(err, note, { ...f, other: extra }, () => { ctx.dirty = false; settings(ctx, view); });
    }
  });
  const cache = h('section', { class: 'cache-panel', hidden: true });
  show(view, h('h1', {}, 'Settings'), form, cache);
  cachePanel(ctx, cache);
}

/** cachePanel fills section with the static page cache's statistics and its clear and warm
 * buttons; it stays hidden when the cache is off (409 DISABLED) or cannot be read. */
async function cachePanel(ctx, section) {
  let stats;
  try {
    stats = (await api('GET', '/cache')).body.data ?? {};
  } catch {
    section.hidden = true;
    return;
  }
  const kib = (n) => `${Math.round((n ?? 0) / 1024)} KiB`;
  const note = h('div', { class: 'notice', role: 'status' });
  const act = (label, path, done) => h('button', {
    type: 'button', class: 'secondary', onclick: async (ev) => {
      ev.target.disabled = true;
      show(note, message('muted', `${label}…`));
      try {
        const d = (await api('POST', path)).body.data ?? {};
        await cachePanel(ctx, section);
        show(section.querySelector('.notice'), message('ok', done(d)));
      } catch (err) {
        ev.target.disabled = false;
        show(note, message('error', describe(err)));
      }
    },
  }, label);
  const rows = [['Pages', String(stats.entries ?? 0)], ['Size', stats.maxBytes ? `${kib(stats.bytes)} of ${kib(stats.maxBytes)}` : kib(stats.bytes)],
    ['Hits', String(stats.hits ?? 0)], ['Misses', String(stats.misses ?? 0)]];
  const can = ctx.can('settings', 'edit');
  show(section, h('h2', { id: 'cache-title' }, 'Static page cache'),
    h('dl', { class: 'cache-stats' }, ...rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
    note,
    can ? h('div', { class: 'actions' },
      act('Clear cache', '/cache/clear', (d) => `Cleared ${d.cleared ?? 0} pages.`),
      act('Warm cache', '/cache/warm', (d) => `Requested ${d.requested ?? 0} pages: ${d.stored ?? 0} stored, ${d.cached ?? 0} already cached, ${d.failed ?? 0} failed.`)) : null);
  section.setAttribute('aria-labelledby', 'cache-title');
  section.hidden = false;
}
