// git.js: git sync (docs/git.md): each repository's state with Sync now and Retry, and the small
// header indicator that says a push is pending or failed.
import { api, ApiError, describe } from './api.js';
import { h, message, show, when } from './dom.js';

const labels = { clean: 'Clean', pending: 'Changes waiting', syncing: 'Syncing', pushed: 'Pushed', failed: 'Failed' };

/** status returns the repositories, or null when git sync is off (409 DISABLED). */
async function status() {
  try {
    return (await api('GET', '/git/status')).body.data.repositories ?? [];
  } catch (err) {
    if (err instanceof ApiError && err.code === 'DISABLED') return null;
    throw err;
  }
}

/** render draws the git sync screen. */
export async function render(ctx, view, flash = null) {
  const repos = await status();
  if (repos === null) {
    show(view, h('h1', {}, 'Git sync'), message('muted', 'Git sync is off on this site. It is switched on with git.enabled in cms.config.yaml (see the git documentation).'));
    return;
  }
  const canEdit = ctx.can('git', 'edit');
  const note = h('div', { class: 'notice', role: 'status' }, flash);
  const run = async (button, path, body, done) => {
    button.disabled = true;
    show(note, message('muted', 'Working…'));
    try {
      const out = (await api('POST', path, { json: body })).body.data;
      const results = out.results ?? (out.result ? [out.result] : []);
      const named = results.map((r) => ({ ...r, repository: repos.find((x) => x.id === r.repository)?.label || r.repository }));
      const failed = named.filter((r) => r.error);
      const text = failed.length ? message('error', failed.map((r) => `${r.repository}: ${r.error}`).join(' '))
        : message('ok', done(named));
      await render(ctx, view, text);
      refreshIndicator();
    } catch (err) {
      button.disabled = false;
      show(note, message('error', describe(err)));
    }
  };
  const summary = (results) => results.map((r) => `${r.repository}: ${r.committed ? `committed ${r.pathCount} file${r.pathCount === 1 ? '' : 's'}` : 'nothing to commit'}${r.pushed ? ', pushed' : r.pendingPush ? ', push pending' : ''}.`).join(' ');
  const card = (r) => {
    const c = r.counts ?? {};
    const sync = h('button', { type: 'button', onclick: () => run(sync, '/git/sync', { repository: r.id }, summary) }, 'Sync now');
    const retry = h('button', { type: 'button', class: 'secondary', onclick: () => run(retry, '/git/retry', { repository: r.id }, summary) }, 'Retry');
    return h('section', { class: 'editor git-repo', 'data-repo': r.id, 'aria-labelledby': `repo-${r.id}` },
      h('div', { class: 'toolbar' }, h('h2', { id: `repo-${r.id}` }, r.label || r.id), h('span', { class: `badge git-${r.status}` }, labels[r.status] ?? r.status)),
      h('dl', { class: 'facts' },
        h('dt', {}, 'Branch'), h('dd', {}, r.branch || '—'),
        h('dt', {}, 'Remote'), h('dd', {}, r.remote || 'no push'),
        h('dt', {}, 'Waiting'), h('dd', {}, `${c.added ?? 0} added, ${c.modified ?? 0} modified, ${c.deleted ?? 0} deleted${r.pushPending ? '; a push is pending' : ''}`),
        h('dt', {}, 'Last commit'), h('dd', {}, r.lastCommit ? [h('code', {}, String(r.lastCommit.hash).slice(0, 10)), ` ${r.lastCommit.message} · ${when(r.lastCommit.at)}`] : 'none yet'),
        r.error ? [h('dt', {}, 'Last error'), h('dd', { class: 'error' }, r.error)] : null),
      canEdit ? h('div', { class: 'actions' }, r.canSync ? sync : null, r.canRetry ? retry : null) : null);
  };
  show(view, h('h1', { tabindex: '-1' }, 'Git sync'),
    h('p', { class: 'muted' }, 'Changes made here are committed to the site’s Git repository, and pushed when the site is set to. Sync now commits what waits; Retry runs failed or pending work again.'),
    note, repos.length ? repos.map(card) : message('muted', 'No repositories are tracked.'));
}

// The indicator polls at most every 30 s, only while the tab is visible, only with git:view,
// and stops for good when git sync is off.
const every = 30_000;
let indicator = null;
let timer = null;
let last = 0;
let off = false;
let gitURL = '';

/** startIndicator puts a discreet link in the header while some push is pending or failed. */
export function startIndicator(ctx, host) {
  if (!ctx.can('git', 'view')) return;
  gitURL = ctx.url('/git');
  indicator = h('a', { href: gitURL, 'data-nav': true, class: 'git-indicator', hidden: true });
  host.before(indicator);
  document.addEventListener('visibilitychange', schedule);
  schedule();
}

function schedule() {
  clearTimeout(timer);
  if (off || document.visibilityState !== 'visible') return;
  const wait = Math.max(0, last + every - Date.now());
  timer = setTimeout(refreshIndicator, wait);
}

/** refreshIndicator asks for the status now (after a sync, say) and draws the indicator. */
export async function refreshIndicator() {
  if (!indicator || off) return;
  clearTimeout(timer);
  last = Date.now();
  try {
    const repos = await status();
    if (repos === null) {
      off = true;
      indicator.hidden = true;
      return;
    }
    const failed = repos.filter((r) => r.status === 'failed' || r.error);
    const pending = repos.filter((r) => r.pushPending);
    const bad = failed.length || pending.length;
    indicator.hidden = !bad;
    indicator.className = `git-indicator${failed.length ? ' failed' : ''}`;
    indicator.textContent = failed.length ? 'Git: sync failed' : bad ? 'Git: push pending' : '';
    indicator.title = failed.length ? failed.map((r) => `${r.label || r.id}: ${r.error || r.status}`).join('\n') : '';
  } catch {
    // A passing network problem: keep what is shown and ask again later.
  }
  schedule();
}
