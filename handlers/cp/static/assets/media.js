// media.js: the asset library: a grid of folders and files with thumbnails, uploads by drag and
// drop or file picker with progress, a new folder, and a file's details: alt text, move or
// rename, where it is used, delete (warning with that list).
import { ApiError, api, apiPath, describe } from './api.js';
import { h, message, show, when } from './dom.js';

const enc = encodeURIComponent;
const imageExt = /\.(png|jpe?g|gif|webp|avif|svg)$/i;

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
  if (err instanceof ApiError && err.status === 409) return `${describe(err)} Tick “Replace files of the same name” to overwrite it.`;
  return describe(err);
}

/** upload sends one file with XMLHttpRequest, which (unlike fetch) reports upload progress. */
function upload(file, dir, overwrite, onProgress) {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append('file', file);
    if (dir) form.append('directory', dir);
    if (overwrite) form.append('overwrite', 'true');
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${apiPath}/assets`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.addEventListener('progress', (ev) => { if (ev.lengthComputable) onProgress(ev.loaded / ev.total); });
    xhr.addEventListener('load', () => {
      let body = null;
      try { body = JSON.parse(xhr.responseText); } catch { /* not JSON */ }
      if (xhr.status === 401) return reject(new ApiError(401, body));
      if (xhr.status >= 200 && xhr.status < 300) return resolve(body.data);
      reject(new ApiError(xhr.status, body));
    });
    xhr.addEventListener('error', () => reject(new ApiError(0, { error: { message: 'The server could not be reached.' } })));
    xhr.send(form);
  });
}

/** useLabel names a document that uses an asset, for a link or a sentence. */
function useLabel(u) {
  const kind = { entry: 'Entry', global: 'Global', term: 'Term' }[u.kind] ?? u.kind;
  const where = u.collection || u.taxonomy;
  return `${kind} “${u.title || u.slug || u.handle}”${where ? ` (${where})` : ''}${u.status === 'draft' ? ', draft' : ''}`;
}

function useURL(ctx, u) {
  if (u.kind === 'entry') return ctx.url(`/entries/${enc(u.collection)}/${enc(u.slug)}`);
  if (u.kind === 'global') return ctx.url(`/globals/${enc(u.handle)}`);
  return ctx.url(`/taxonomies/${enc(u.taxonomy)}/${enc(u.slug)}`);
}

/** usedIn lists the entries, globals and terms that use the file, each a link to its editor,
 * with the fields that hold it. */
function usedIn(ctx, usage) {
  if (!usage) return h('section', { class: 'usage' }, h('h3', {}, 'Used in'), message('muted', 'Could not find out where this file is used.'));
  const uses = usage.uses ?? [];
  const more = [];
  if (usage.hidden) more.push(`and ${usage.hidden} more you may not view`);
  if (usage.truncated) more.push('and possibly more (the list stops at its limit)');
  return h('section', { class: 'usage', 'aria-labelledby': 'usage-title' }, h('h3', { id: 'usage-title' }, 'Used in'),
    uses.length ? h('ul', { class: 'plain' }, uses.map((u) => h('li', {}, ctx.link(useURL(ctx, u), useLabel(u)),
      h('span', { class: 'muted' }, ` · ${(u.fields ?? []).join(', ')}`)))) : null,
    !uses.length && !usage.hidden ? message('muted', 'Not used by any entry, global or term.') : null,
    more.length ? message('muted', `${uses.length ? '' : 'Used '}${more.join(', ')}.`) : null);
}

/** deleteQuestion asks before a delete, naming what uses the file. */
function deleteQuestion(name, usage) {
  const uses = usage?.uses ?? [];
  const n = uses.length + (usage?.hidden ?? 0);
  if (!n) return `Delete ${name}?${usage ? '' : ' Pages that show it will lose it.'}`;
  const list = uses.slice(0, 10).map((u) => `• ${useLabel(u)}`);
  if (n > list.length) list.push(`• and ${n - list.length} more`);
  return `${name} is used in ${n} place${n === 1 ? '' : 's'}:\n${list.join('\n')}\nThey will show a missing file. Delete it anyway?`;
}

export async function render(ctx, view, q, flash = '') {
  const dir = (q.get('directory') ?? '').replace(/^\/+|\/+$/g, '');
  const here = (d) => ctx.url(d ? `/media?${new URLSearchParams({ directory: d })}` : '/media');
  const { body } = await api('GET', `/assets${dir ? `?${new URLSearchParams({ directory: dir })}` : ''}`);
  const files = body.data.filter((a) => !a.directory);
  const parts = dir ? dir.split('/') : [];
  const note = h('div', { class: 'notice', role: 'status' }, flash ? message('ok', flash) : null);
  const details = h('div', { class: 'asset-details' });
  const reload = (text) => render(ctx, view, q, text);

  const crumbs = h('p', { class: 'crumbs' }, ctx.link(here(''), 'Assets'),
    parts.map((p, i) => [' / ', i === parts.length - 1 ? p : ctx.link(here(parts.slice(0, i + 1).join('/')), p)]));
  const tiles = [
    ...(body.directories ?? []).map((name) => h('li', {}, ctx.link(here(dir ? `${dir}/${name}` : name), h('span', { class: 'thumb file', 'aria-hidden': 'true' }, '📁'), h('span', {}, name)))),
    ...files.map((a) => h('li', {}, h('button', { type: 'button', class: 'tile', 'data-path': a.path, 'aria-label': `${a.filename}, ${size(a.size)}`, onclick: (ev) => select(a, ev.currentTarget) },
      imageExt.test(a.filename) ? h('img', { src: a.url, alt: a.alt ?? '', class: 'thumb', width: 96, height: 96, loading: 'lazy' }) : h('span', { class: 'thumb file', 'aria-hidden': 'true' }, (a.extension || '?').toUpperCase()),
      h('span', {}, a.filename)))),
  ];

  async function select(a, tile) {
    for (const t of view.querySelectorAll('.tile[aria-pressed]')) t.removeAttribute('aria-pressed');
    tile?.setAttribute('aria-pressed', 'true');
    let meta = a;
    const q = new URLSearchParams({ path: a.path });
    const [m, u] = await Promise.allSettled([api('GET', `/assets/meta?${q}`), api('GET', `/assets/usage?${q}`)]);
    if (m.status === 'fulfilled') meta = m.value.body.data; // else the listing's facts will do
    const usage = u.status === 'fulfilled' ? u.value.body.data : null;
    const alt = h('input', { type: 'text', id: 'asset-alt', value: meta.alt ?? '' });
    const to = h('input', { type: 'text', id: 'asset-to', value: a.path, spellcheck: 'false' });
    const dnote = h('div', { class: 'notice', role: 'status' });
    const can = (x) => ctx.can('assets', x);
    show(details, h('h2', {}, a.filename),
      imageExt.test(a.filename) ? h('img', { src: a.url, alt: meta.alt ?? '', class: 'preview' }) : null,
      h('dl', { class: 'facts' }, h('dt', {}, 'Type'), h('dd', {}, a.mimeType ?? ''), h('dt', {}, 'Size'), h('dd', {}, size(a.size)),
        h('dt', {}, 'Modified'), h('dd', {}, when(a.modifiedAt)), h('dt', {}, 'Address'), h('dd', {}, h('a', { href: a.url, target: '_blank', rel: 'noopener' }, a.url))),
      can('edit') ? h('form', { class: 'row', onsubmit: async (ev) => {
        ev.preventDefault();
        try { await api('PUT', `/assets/meta?${new URLSearchParams({ path: a.path })}`, { json: { alt: alt.value } }); show(dnote, message('ok', 'Alt text saved.')); } catch (err) { show(dnote, message('error', describe(err))); }
      } }, h('label', { for: 'asset-alt' }, 'Alt text'), alt, h('button', { type: 'submit', class: 'secondary' }, 'Save alt text')) : null,
      can('edit') ? h('form', { class: 'row', onsubmit: async (ev) => {
        ev.preventDefault();
        try { await api('POST', '/assets/move', { json: { from: a.path, to: to.value.trim() } }); await reload(`Moved to ${to.value.trim()}.`); } catch (err) { show(dnote, message('error', describe(err))); }
      } }, h('label', { for: 'asset-to' }, 'Move or rename to'), to, h('button', { type: 'submit', class: 'secondary' }, 'Move')) : null,
      usedIn(ctx, usage),
      can('delete') ? h('button', { type: 'button', class: 'danger', onclick: async () => {
        if (!confirm(deleteQuestion(a.filename, usage))) return;
        try { await api('DELETE', `/assets?${new URLSearchParams({ path: a.path })}`); await reload(`Deleted ${a.filename}.`); } catch (err) { show(dnote, message('error', describe(err))); }
      } }, 'Delete file') : null,
      dnote);
    details.querySelector('h2').tabIndex = -1;
    details.querySelector('h2').focus();
  }

  let uploader = null;
  if (ctx.can('assets', 'create')) {
    const input = h('input', { type: 'file', multiple: true, id: 'upload-files' });
    const overwrite = h('input', { type: 'checkbox', id: 'overwrite' });
    const progress = h('ul', { class: 'plain uploads', 'aria-live': 'polite' });
    const send = async (list) => {
      const done = [];
      for (const file of list) {
        const bar = h('progress', { max: 1, value: 0, 'aria-label': `Uploading ${file.name}` });
        const line = h('li', {}, `${file.name} `, bar);
        progress.append(line);
        try {
          const a = await upload(file, dir, overwrite.checked, (p) => { bar.value = p; });
          bar.value = 1;
          done.push(a.filename);
        } catch (err) {
          if (err.status === 401) { location.reload(); return; }
          line.replaceChildren(message('error', `${file.name}: ${explain(err)}`));
        }
      }
      if (done.length) await reload(`Uploaded ${done.join(', ')}.`);
    };
    input.addEventListener('change', () => send([...input.files]));
    const folder = h('input', { type: 'text', id: 'new-folder', placeholder: 'folder-name' });
    uploader = h('div', { class: 'upload' },
      h('div', { class: 'dropzone', ondragover: (ev) => { ev.preventDefault(); ev.currentTarget.classList.add('drop'); }, ondragleave: (ev) => ev.currentTarget.classList.remove('drop'),
        ondrop: (ev) => { ev.preventDefault(); ev.currentTarget.classList.remove('drop'); send([...ev.dataTransfer.files]); } },
        h('p', {}, `Drop files here to upload them to ${dir || 'the top folder'}, or `), h('label', { for: 'upload-files' }, 'choose files'), input,
        h('label', { for: 'overwrite', class: 'inline' }, overwrite, ' Replace files of the same name')),
      progress,
      h('form', { class: 'row', onsubmit: async (ev) => {
        ev.preventDefault();
        const name = folder.value.trim();
        if (!name) return;
        try { await api('POST', '/assets/folders', { json: { path: dir ? `${dir}/${name}` : name } }); await reload(`Created the folder ${name}.`); } catch (err) { show(note, message('error', describe(err))); }
      } }, h('label', { for: 'new-folder' }, 'New folder'), folder, h('button', { type: 'submit', class: 'secondary' }, 'Create')));
  }

  show(view, crumbs, h('h1', {}, 'Assets'), note, uploader,
    tiles.length ? h('ul', { class: 'asset-grid', 'aria-label': 'Files and folders' }, tiles) : message('muted', 'No files in this folder.'),
    details);
}
