// tokens.js: API tokens (docs/api.md#api-tokens): the list with role, expiry and last use, a form
// that creates one and shows its secret this once, and revocation.
import { api, ApiError, describe } from './api.js';
import { fieldErrors, h, message, show, when } from './dom.js';

const enc = encodeURIComponent;
const lifetimes = [['30d', '30 days'], ['90d', '90 days'], ['180d', '180 days'], ['366d', '366 days'], ['12h', '12 hours']];

/** render draws the tokens screen; flash is a line to show on top (after a revocation). */
export async function render(ctx, view, flash = null) {
  const [list, roles] = await Promise.all([
    api('GET', '/tokens').then((r) => r.body.data ?? []),
    // The role names need users:view; without it the role is typed.
    ctx.can('users', 'view') ? api('GET', '/roles').then((r) => r.body.data ?? []).catch(() => null) : null,
  ]);
  const note = h('div', { class: 'notice', role: 'status' }, flash);
  const rows = list.map((t) => h('tr', { 'data-token': t.id },
    h('td', {}, h('strong', {}, t.name), h('br'), h('code', { class: 'muted' }, t.id)),
    h('td', {}, t.role),
    h('td', {}, t.expired ? h('span', { class: 'badge draft' }, 'expired') : null, ' ', when(t.expiresAt)),
    h('td', {}, t.lastUsedAt ? when(t.lastUsedAt) : 'never'),
    h('td', {}, t.createdBy || 'command line', h('br'), h('span', { class: 'muted' }, when(t.createdAt))),
    h('td', {}, ctx.can('tokens', 'delete') ? h('button', { type: 'button', class: 'secondary danger-text', 'aria-label': `Revoke ${t.name}`, onclick: () => revoke(t) }, 'Revoke') : null)));

  async function revoke(t) {
    if (!confirm(`Revoke the token “${t.name}”? Whatever uses it stops working at once.`)) return;
    try {
      await api('DELETE', `/tokens/${enc(t.id)}`);
      await render(ctx, view, message('ok', `Revoked ${t.name}.`));
      view.querySelector('h1')?.focus();
    } catch (err) {
      show(note, message('error', describe(err)));
    }
  }

  show(view,
    h('h1', { tabindex: '-1' }, 'API tokens'),
    h('p', { class: 'muted' }, 'Tokens let build scripts and server-side frontends use the API with one role, sent as Authorization: Bearer. A token never does more than its creator can.'),
    note,
    list.length
      ? h('div', { class: 'scroll' }, h('table', { class: 'tokens' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Name'), h('th', {}, 'Role'), h('th', {}, 'Expires'), h('th', {}, 'Last used'), h('th', {}, 'Created by'), h('th', {}, h('span', { class: 'sr-only' }, 'Actions')))),
        h('tbody', {}, rows)))
      : message('muted', 'No tokens yet.'),
    ctx.can('tokens', 'create') ? createForm(ctx, view, roles) : null);
}

function createForm(ctx, view, roles) {
  const err = {};
  const field = (name, label, input, hint) => {
    input.id = `f-${name}`;
    err[name] = h('div', { class: 'field-error', id: `err-${name}` });
    input.setAttribute('aria-describedby', `${hint ? `hint-${name} ` : ''}err-${name}`);
    return h('div', { class: 'field', 'data-field': name }, h('label', { for: input.id }, label), hint ? h('small', { class: 'help', id: `hint-${name}` }, hint) : null, input, err[name]);
  };
  const name = h('input', { type: 'text', name: 'name', autocomplete: 'off', required: true, maxlength: 100 });
  const role = roles
    ? h('select', { name: 'role' }, roles.map((r) => h('option', { value: r.handle }, r.display ? `${r.display} (${r.handle})` : r.handle)))
    : h('input', { type: 'text', name: 'role', spellcheck: 'false' });
  const expires = h('select', { name: 'expiresIn' }, lifetimes.map(([v, t]) => h('option', { value: v, selected: v === '90d' }, t)));
  const note = h('div', { class: 'notice', role: 'status' });
  const submit = h('button', { type: 'submit' }, 'Create token');
  const form = h('form', { class: 'editor', novalidate: true },
    h('h2', {}, 'New token'),
    field('name', 'Name', name, 'What uses it, e.g. “Netlify build”.'),
    field('role', 'Role', role, 'Creating a token for a role needs every permission of that role.'),
    field('expiresIn', 'Expires after', expires),
    note, h('div', { class: 'actions' }, submit));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    for (const e of Object.values(err)) show(e);
    show(note);
    if (!name.value.trim()) {
      show(err.name, 'Give the token a name.');
      return name.focus();
    }
    submit.disabled = true;
    try {
      const t = (await api('POST', '/tokens', { json: { name: name.value.trim(), role: role.value.trim(), expiresIn: expires.value } })).body.data;
      await render(ctx, view, message('ok', `Created ${t.name}.`));
      view.querySelector('.token-secret-host')?.replaceWith(secretBox(t));
    } catch (e) {
      const rest = {};
      for (const [k, msgs] of Object.entries(e instanceof ApiError ? e.fields : {})) {
        if (err[k]) show(err[k], [].concat(msgs).join(' ')); else rest[k] = msgs;
      }
      show(note, message('error', describe(e)), fieldErrors(rest));
    } finally {
      submit.disabled = false;
    }
  });
  // After a creation the screen is redrawn and the secret takes the host's place, once.
  return [h('div', { class: 'token-secret-host' }), form];
}

/** secretBox shows a new token's secret, which the server never shows again, with a copy button. */
function secretBox(t) {
  const out = h('input', { type: 'text', readonly: true, value: t.token, id: 'new-token', class: 'mono', spellcheck: 'false', 'aria-describedby': 'new-token-hint' });
  const status = h('span', { role: 'status', class: 'muted' });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(t.token);
      show(status, 'Copied.');
    } catch {
      out.select();
      show(status, 'Select the text and copy it (Ctrl+C).');
    }
  };
  const box = h('section', { class: 'token-secret', role: 'region', 'aria-labelledby': 'new-token-title' },
    h('h2', { id: 'new-token-title' }, `Token for ${t.name}`),
    h('p', { id: 'new-token-hint' }, 'Copy it now: it is shown only this once. Whoever holds it acts with the role ', h('strong', {}, t.role), ` until ${when(t.expiresAt)}.`),
    h('label', { for: 'new-token', class: 'sr-only' }, 'The new token'),
    h('div', { class: 'row' }, out, h('button', { type: 'button', class: 'secondary', onclick: copy }, 'Copy'), status));
  queueMicrotask(() => out.focus());
  return box;
}
