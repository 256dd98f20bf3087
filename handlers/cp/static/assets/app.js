// app.js: the Control Panel shell. It loads the signed-in user and what they may do, draws the
// sidebar, and routes paths under the CP to views (History API; the server answers every CP path
// with this page).
import { abortAll, api, cpPath, describe, prefetch, toLogin } from './api.js';
import { h, message, show, when } from './dom.js';
import * as entries from './entries.js';
import * as globals from './globals.js';
import * as navigation from './navigation.js';
import * as forms from './forms.js';
import * as media from './media.js';
import * as admin from './admin.js';
import * as taxonomies from './taxonomies.js';
import * as tokens from './tokens.js';
import * as git from './git.js';
import * as seo from './seo.js';

const main = document.getElementById('main');
const sidebar = document.getElementById('sidebar');

/** ctx is what every view gets: the user, permission checks, and navigation. */
const ctx = {
  me: null,
  caps: {},
  scopes: {},
  collections: [],
  _dirty: false,
  /** dirty says an editor has unsaved changes; the page shows it as data-unsaved on <body>. */
  get dirty() { return this._dirty; },
  set dirty(v) {
    this._dirty = v === true;
    if (this._dirty) { document.body.dataset.unsaved = 'true'; } else delete document.body.dataset.unsaved;
  },
  can(resource, action) {
    return this.caps[`${resource}:${action}`] === true;
  },
  canEntries(collection, action) {
    return this.scopes[collection]?.[action] === true || this.can('entries', action);
  },
  url: (path = '') => cpPath + path,
  navigate(path, { replace = false } = {}) {
    if (this.dirty && !confirm('Leave this page? Your unsaved changes will be lost.')) return;
    this.dirty = false;
    history[replace ? 'replaceState' : 'pushState'](null, '', path);
    moved = true;
    route();
  },
};

/** link is an in-app link: a real href (open in a new tab works) that routes without reloading. */
function link(path, ...text) {
  return h('a', { href: path, 'data-nav': true }, ...text);
}
ctx.link = link;

document.addEventListener('click', (ev) => {
  const a = ev.target.closest?.('a[data-nav]');
  if (!a || ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
  ev.preventDefault();
  ctx.navigate(a.getAttribute('href'));
});
window.addEventListener('popstate', () => {
  ctx.dirty = false;
  route();
});
window.addEventListener('beforeunload', (ev) => {
  if (ctx.dirty) ev.preventDefault();
});

// On a phone the sidebar folds away behind a Menu button; it closes again after each navigation.
const menu = document.getElementById('menu-toggle');
const setMenu = (open) => {
  menu.setAttribute('aria-expanded', open ? 'true' : 'false');
  document.body.classList.toggle('menu-open', open);
};
menu.addEventListener('click', () => setMenu(menu.getAttribute('aria-expanded') !== 'true'));

document.getElementById('logout').addEventListener('click', async () => {
  if (ctx.dirty && !confirm('Log out? Your unsaved changes will be lost.')) return;
  ctx.dirty = false;
  abortAll();
  try {
    await api('POST', '/auth/logout', { login401: false });
  } catch { /* the session may be gone already; the sign-in page is right either way */ }
  location.assign(`${cpPath}/login`);
});

function drawSidebar() {
  const section = (title, items) => (items.length ? h('section', {}, h('h2', {}, title), h('ul', {}, items.map((i) => h('li', {}, i)))) : null);
  const cols = ctx.collections.filter((c) => ctx.canEntries(c.handle, 'view')).map((c) => link(ctx.url(`/entries/${encodeURIComponent(c.handle)}`), c.title || c.handle));
  const other = [];
  if (ctx.can('globals', 'view')) other.push(link(ctx.url('/globals'), 'Globals'));
  if (ctx.can('navigation', 'view')) other.push(link(ctx.url('/navigation'), 'Navigation'));
  if (ctx.can('taxonomies', 'view')) other.push(link(ctx.url('/taxonomies'), 'Taxonomies'));
  if (ctx.can('forms', 'view')) other.push(link(ctx.url('/forms'), 'Forms'));
  if (ctx.can('assets', 'view')) other.push(link(ctx.url('/media'), 'Assets'));
  const seoLinks = seo.sections(ctx).map(([p, t]) => link(ctx.url(p), t));
  const manage = [];
  if (ctx.can('users', 'view')) manage.push(link(ctx.url('/users'), 'Users'), link(ctx.url('/roles'), 'Roles'));
  if (ctx.can('settings', 'view')) manage.push(link(ctx.url('/settings'), 'Settings'), link(ctx.url('/hooks'), 'Hooks'));
  if (ctx.can('tokens', 'view')) manage.push(link(ctx.url('/tokens'), 'API tokens'));
  if (ctx.can('git', 'view')) manage.push(link(ctx.url('/git'), 'Git sync'));
  manage.push(link(ctx.url('/account'), 'Your account'));
  show(sidebar, section('Collections', cols), section('Site', other), section('SEO', seoLinks), section('Manage', manage));
}

function markCurrent() {
  for (const a of sidebar.querySelectorAll('a')) {
    const href = a.getAttribute('href');
    const here = location.pathname === href || location.pathname.startsWith(`${href}/`);
    if (here) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

/** dashboard: counts and drafts per collection, the latest edits, and form submissions. */
async function dashboard(view) {
  const enc = encodeURIComponent;
  const cols = ctx.collections.filter((c) => ctx.canEntries(c.handle, 'view'));
  // The heading and the collections come at once; the figures follow as they arrive.
  show(view, h('h1', {}, `Welcome, ${ctx.me.name || ctx.me.email}`),
    cols.length ? h('ul', { class: 'cards' }, cols.map((c) => h('li', {}, link(ctx.url(`/entries/${enc(c.handle)}`), h('strong', {}, c.title || c.handle)))))
      : message('muted', 'Your roles give you no collections to edit.'),
    message('muted', 'Loading the latest changes…'));
  interactive();
  const formsP = ctx.can('forms', 'view')
    ? api('GET', '/forms').then((r) => r.body.data).catch(() => []).then((list) => Promise.all(list.map((f) => api('GET', `/forms/${enc(f.handle)}/submissions?perPage=1`)
      .then((r) => ({ f, total: r.body.data.total })).catch(() => ({ f, total: 0 })))))
    : Promise.resolve([]);
  const stats = await Promise.all(cols.map(async (c) => {
    const [recent, drafts] = await Promise.all([
      api('GET', `/entries/${enc(c.handle)}?limit=5&sort=-updatedAt`).then((r) => r.body),
      api('GET', `/entries/${enc(c.handle)}?limit=1&status=draft`).then((r) => r.body.meta?.total ?? 0),
    ]).catch(() => [{ data: [], meta: { total: 0 } }, 0]);
    return { c, total: recent.meta?.total ?? recent.data.length, drafts, recent: recent.data };
  }));
  const forms = await formsP;
  const recent = stats.flatMap((s) => s.recent.map((e) => ({ ...e, col: s.c }))).sort((a, b) => String(b.updatedAt).localeCompare(String(a.updatedAt))).slice(0, 8);
  show(view,
    h('h1', {}, `Welcome, ${ctx.me.name || ctx.me.email}`),
    cols.length ? null : message('muted', 'Your roles give you no collections to edit.'),
    h('ul', { class: 'cards' }, stats.map((s) => h('li', {}, link(ctx.url(`/entries/${enc(s.c.handle)}`), h('strong', {}, s.c.title || s.c.handle),
      h('span', { class: 'muted stat' }, `${s.total} entr${s.total === 1 ? 'y' : 'ies'}, ${s.drafts} draft${s.drafts === 1 ? '' : 's'}`))))),
    h('div', { class: 'dash' },
      h('section', {}, h('h2', {}, 'Recently edited'), recent.length ? h('ul', { class: 'plain' }, recent.map((e) => h('li', {},
        link(ctx.url(`/entries/${enc(e.col.handle)}/${enc(e.slug)}`), e.title || e.slug), ' ', h('span', { class: `badge ${e.status}` }, e.status),
        h('span', { class: 'muted' }, ` ${e.col.title || e.col.handle} · ${when(e.updatedAt)}`)))) : message('muted', 'Nothing yet.')),
      h('section', {}, h('h2', {}, 'Drafts'), stats.some((s) => s.drafts) ? h('ul', { class: 'plain' }, stats.filter((s) => s.drafts).map((s) => h('li', {},
        link(ctx.url(`/entries/${enc(s.c.handle)}?status=draft`), `${s.drafts} in ${s.c.title || s.c.handle}`)))) : message('muted', 'No drafts.')),
      forms.length ? h('section', {}, h('h2', {}, 'Form submissions'), h('ul', { class: 'plain' }, forms.map(({ f, total }) => h('li', {},
        link(ctx.url(`/forms/${enc(f.handle)}`), f.title || f.handle), h('span', { class: 'muted' }, ` ${total} submission${total === 1 ? '' : 's'}`))))) : null));
}

function notFound(view) {
  show(view, h('h1', {}, 'Page not found'), h('p', {}, 'There is nothing at this address. ', link(ctx.url(), 'Go to the start page.')));
}

/** moved says the user went to another page in the app: the new page's heading gets the focus,
 * so keyboard and screen-reader users start at its top, as after a full page load. */
let moved = false;

/** interactive marks (once) when the first screen can be used, for measurements (see
 * local/cpbrowser's TestTimings). */
let marked = false;
function interactive() {
  if (marked) return;
  marked = true;
  performance.mark('cp:interactive');
}

/** route draws the view for the current address into a fresh container, so a slow view that
 * finishes after the user moved on draws into a detached element and changes nothing. */
async function route() {
  setMenu(false);
  const view = h('div', { class: 'view' });
  main.replaceChildren(view);
  markCurrent();
  const rest = location.pathname.startsWith(cpPath) ? location.pathname.slice(cpPath.length) : '';
  const seg = rest.split('/').filter(Boolean).map(decodeURIComponent);
  const q = new URLSearchParams(location.search);
  try {
    switch (seg[0]) {
      case undefined: return await dashboard(view);
      case 'entries':
        if (seg.length === 2) return await entries.list(ctx, view, seg[1], q);
        if (seg.length === 3) return await entries.edit(ctx, view, seg[1], seg[2] === '_new' ? null : seg[2]);
        break;
      case 'globals':
        if (seg.length <= 2) return await globals.render(ctx, view, seg[1]);
        break;
      case 'navigation':
        if (seg.length <= 2) return await navigation.render(ctx, view, seg[1]);
        break;
      case 'forms':
        if (seg.length <= 3) return await forms.render(ctx, view, seg[1], q, seg[2]);
        break;
      case 'media':
        if (seg.length === 1) return await media.render(ctx, view, q);
        break;
      case 'taxonomies':
        if (seg.length <= 3) return await taxonomies.render(ctx, view, seg[1], seg[2]);
        break;
      case 'users':
        if (seg.length <= 2) return await admin.users(ctx, view, seg[1]);
        break;
      case 'roles':
        if (seg.length <= 2) return await admin.roles(ctx, view, seg[1]);
        break;
      case 'account':
        if (seg.length === 1) return await admin.account(ctx, view);
        break;
      case 'hooks':
        if (seg.length === 1) return await admin.hooks(ctx, view);
        break;
      case 'settings':
        if (seg.length === 1) return await admin.settings(ctx, view);
        break;
      case 'tokens':
        if (seg.length === 1 && ctx.can('tokens', 'view')) return await tokens.render(ctx, view);
        break;
      case 'git':
        if (seg.length === 1 && ctx.can('git', 'view')) return await git.render(ctx, view);
        break;
      case 'seo':
        if (seg.length <= 3 && await seo.render(ctx, view, seg.slice(1), q) !== false) return;
        break;
    }
    notFound(view);
  } catch (err) {
    show(view, h('h1', {}, 'Could not load this page'), message('error', describe(err)));
  } finally {
    interactive();
    if (moved && view.isConnected && !view.contains(document.activeElement)) {
      const h1 = view.querySelector('h1');
      if (h1) { h1.tabIndex = -1; h1.focus({ preventScroll: false }); }
    }
    moved = false;
  }
}

async function start() {
  // A list page's entries do not depend on who is signed in: ask for them now, alongside the
  // user and their capabilities, rather than after.
  const seg = location.pathname.slice(cpPath.length).split('/').filter(Boolean);
  if (location.pathname.startsWith(`${cpPath}/`) && seg[0] === 'entries' && seg.length === 2) {
    prefetch(entries.listPath(decodeURIComponent(seg[1]), new URLSearchParams(location.search)));
  }
  try {
    const [me, caps] = await Promise.all([api('GET', '/users/me'), api('GET', '/users/capabilities')]);
    ctx.me = me.body.data;
    ctx.caps = caps.body.data.capabilities ?? {};
    ctx.scopes = caps.body.data.scopes?.entries ?? {};
    // Collection titles need collections:view; without it, the handles the scopes name will do.
    ctx.collections = Object.keys(ctx.scopes).sort().map((handle) => ({ handle, title: handle }));
    if (ctx.can('collections', 'view')) {
      const cols = await api('GET', '/collections');
      ctx.collections = cols.body.data;
    }
  } catch (err) {
    if (err?.status === 401) return toLogin();
    show(main, h('h1', {}, 'The Control Panel could not start'), message('error', describe(err)));
    return;
  }
  document.getElementById('user-name').textContent = ctx.me.name || ctx.me.email;
  document.getElementById('logout').hidden = false;
  drawSidebar();
  git.startIndicator(ctx, document.getElementById('user-name'));
  route();
}

start();
