// media.js: the asset library: browse folders, open files, upload one.
import { api, ApiError, describe } from './api.js';
import { h, message, show, when } from './dom.js';

function size(n) {
  if (typeof n !== 'number') return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** explain turns an upload error into a sentence; UPLOAD_FAILED names the broken constraint. */
function explain(err) {
  if (err instanceof ApiError && err.code === 'UPLOAD_FAILED') {
    const { constraint, limit } = err.error;
    if (constraint === 'file_size') return `${describe(err)} (largest allowed: ${limit})`;
    if (constraint === 'file_type') return `${describe(err)} (allowed: ${limit})`;
  }
  if (err instanceof ApiError && err.status === 409) return `${describe(err)} Tick “Replace a file of the same name” to overwrite it.`;
  return describe(err);
}

export async function render(ctx, view, q, flash = '') {
  const dir = (q.get('directory') ?? '').replace(/^\/+|\/+$/g, '');
  const here = (d) => ctx.url(d ? `/media?${new URLSearchParams({ directory: d })}` : '/media');
  const { body } = await api('GET', `/assets${dir ? `?${new URLSearchParams({ directory: dir })}` : ''}`);
  const files = body.data.filter((a) => !a.directory);
  const parts = dir ? dir.split('/') : [];

  const crumbs = h('p', { class: 'crumbs' }, ctx.link(here(''), 'Assets'),
    parts.map((p, i) => [' / ', i === parts.length - 1 ? p : ctx.link(here(parts.slice(0, i + 1).join('/')), p)]));
  const folders = (body.directories ?? []).map((name) => h('li', {}, ctx.link(here(dir ? `${dir}/${name}` : name), `📁 ${name}`)));
  const rows = files.map((a) => h('tr', {},
    h('td', {}, h('a', { href: a.url, target: '_blank', rel: 'noopener' }, a.filename)),
    h('td', {}, a.mimeType ?? ''),
    h('td', { class: 'num' }, size(a.size)),
    h('td', {}, when(a.modifiedAt))));

  let upload = null;
  if (ctx.can('assets', 'create')) {
    const file = h('input', { type: 'file', name: 'file', required: true, 'aria-label': 'File to upload' });
    const overwrite = h('input', { type: 'checkbox', name: 'overwrite', id: 'overwrite' });
    const note = h('div', { class: 'notice' }, flash ? message('ok', flash) : null);
    const send = h('button', { type: 'submit' }, 'Upload');
    upload = h('form', { class: 'upload', novalidate: true }, h('h2', {}, `Upload to ${dir || 'the top folder'}`), file,
      h('label', { for: 'overwrite', class: 'inline' }, overwrite, ' Replace a file of the same name'), send, note);
    upload.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      if (!file.files.length) return show(note, message('error', 'Choose a file first.'));
      const form = new FormData();
      form.append('file', file.files[0]);
      if (dir) form.append('directory', dir);
      if (overwrite.checked) form.append('overwrite', 'true');
      send.disabled = true;
      try {
        const res = await api('POST', '/assets', { form });
        await render(ctx, view, q, `Uploaded ${res.body.data.filename}.`);
      } catch (err) {
        show(note, message('error', explain(err)));
      } finally {
        send.disabled = false;
      }
    });
  }

  show(view, crumbs, h('h1', {}, 'Assets'),
    folders.length ? h('ul', { class: 'folders' }, folders) : null,
    rows.length
      ? h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'File'), h('th', {}, 'Type'), h('th', {}, 'Size'), h('th', {}, 'Modified'))), h('tbody', {}, rows))
      : message('muted', 'No files in this folder.'),
    upload);
}
