// navigation.js: navigation trees as a tree editor. Items move by drag and drop or from the
// keyboard (Alt+Arrow keys, or the buttons on each row); the navigation's max_depth is enforced
// while moving, and the API's DEPTH_EXCEEDED and INVALID_ENTRY_REFERENCE are explained. The tree
// operations are plain functions (exported, tested under node) over arrays of items.
import { api, ApiError, describe } from './api.js';
import { fieldErrors, h, message, show } from './dom.js';
import { buildForm } from './fields.js';
import { previewer } from './globals.js';

const enc = encodeURIComponent;

/** set says whether a url or entry value is given (null is what responses show for a missing entry). */
const set = (v) => v !== undefined && v !== null && v !== '';

/**
 * urlAndEntry lists the paths (items[2].children[1]) of the items that have both a url and an
 * entry. An item links to one or the other (with neither it is a heading); the API refuses both.
 */
export function urlAndEntry(items, at = 'items') {
  const out = [];
  (Array.isArray(items) ? items : []).forEach((it, i) => {
    if (!it || typeof it !== 'object') return;
    const p = `${at}[${i}]`;
    if (set(it.url) && set(it.entry)) out.push(p);
    out.push(...urlAndEntry(it.children, `${p}.children`));
  });
  return out;
}

/** height is how many levels of children hang below an item (0 for a leaf). */
export function height(item) {
  const kids = Array.isArray(item?.children) ? item.children : [];
  return kids.length ? 1 + Math.max(...kids.map(height)) : 0;
}

/** depth is the tree's nesting depth as the API counts it: 0 for a flat list. */
export const depth = (items) => (items.length ? Math.max(...items.map(height)) : 0);

/** siblings returns the array holding the item at path, and its index there. */
function siblings(items, path) {
  let list = items;
  for (const i of path.slice(0, -1)) list = list[i].children;
  return [list, path[path.length - 1]];
}

/**
 * move applies op (up, down, indent, outdent) to the item at path (indices from the top). It
 * changes items in place and returns {path} of the moved item, or {error} saying why not
 * (nothing changed). maxDepth (null for any) bounds the nesting levels, as the API does.
 */
export function move(items, path, op, maxDepth = null) {
  const [list, i] = siblings(items, path);
  const item = list[i];
  const label = item.label || 'This item';
  switch (op) {
    case 'up':
    case 'down': {
      const j = op === 'up' ? i - 1 : i + 1;
      if (j < 0 || j >= list.length) return { error: `${label} is already ${op === 'up' ? 'first' : 'last'} at its level.` };
      [list[i], list[j]] = [list[j], list[i]];
      return { path: [...path.slice(0, -1), j] };
    }
    case 'indent': {
      if (i === 0) return { error: `${label} has no item above it at its level to go under.` };
      const level = path.length; // the new level (top level is 0)
      if (maxDepth !== null && level + height(item) > maxDepth) {
        return { error: `${label} cannot go one level deeper: this navigation allows ${maxDepth} level${maxDepth === 1 ? '' : 's'} of nesting.` };
      }
      const parent = list[i - 1];
      parent.children = Array.isArray(parent.children) ? parent.children : [];
      list.splice(i, 1);
      parent.children.push(item);
      return { path: [...path.slice(0, -1), i - 1, parent.children.length - 1] };
    }
    case 'outdent': {
      if (path.length < 2) return { error: `${label} is already at the top level.` };
      const parentPath = path.slice(0, -1);
      const [plist, pi] = siblings(items, parentPath);
      list.splice(i, 1);
      if (!list.length) delete plist[pi].children;
      plist.splice(pi + 1, 0, item);
      return { path: [...parentPath.slice(0, -1), pi + 1] };
    }
  }
  return { error: `Unknown move ${op}.` };
}

/** dropProblem says why the item at from cannot be dropped before the item at to (inside itself,
 * or deeper than maxDepth allows), or returns '' when it can. Dragging asks it on every dragover,
 * so a place the depth limit forbids never accepts the drop. */
export function dropProblem(items, from, to, maxDepth = null) {
  if (to.length >= from.length && from.every((x, k) => to[k] === x)) return 'An item cannot go inside itself.';
  const item = siblings(items, from)[0][from[from.length - 1]];
  if (maxDepth !== null && to.length - 1 + height(item) > maxDepth) {
    return `${item.label || 'This item'} cannot go there: this navigation allows ${maxDepth} level${maxDepth === 1 ? '' : 's'} of nesting.`;
  }
  return '';
}

/** moveTo moves the item at from to just before the item at to (drag and drop), within the depth limit. */
export function moveTo(items, from, to, maxDepth = null) {
  const problem = dropProblem(items, from, to, maxDepth);
  if (problem) return { error: problem };
  const [fl, fi] = siblings(items, from);
  const item = fl[fi];
  const target = siblings(items, to)[0][to[to.length - 1]];
  fl.splice(fi, 1);
  // Find the target again: removing the item may have shifted its index.
  const find = (list, p = []) => {
    for (let k = 0; k < list.length; k++) {
      if (list[k] === target) return [...p, k];
      const sub = Array.isArray(list[k].children) ? find(list[k].children, [...p, k]) : null;
      if (sub) return sub;
    }
    return null;
  };
  const at = find(items);
  const [tl, ti] = siblings(items, at);
  tl.splice(ti, 0, item);
  if (!fl.length && from.length > 1) {
    const [pl, pi] = siblings(items, from.slice(0, -1));
    if (pl[pi] && Array.isArray(pl[pi].children) && !pl[pi].children.length) delete pl[pi].children;
  }
  return { path: at };
}

/** editable strips what the server adds to entry items, so the tree holds what is stored. */
function editable(items) {
  return (items ?? []).map((it) => {
    const out = { ...it };
    if (out.entry) {
      delete out.url;
      delete out.missing;
    }
    if (Array.isArray(out.children)) out.children = editable(out.children);
    return out;
  });
}

function explain(err) {
  switch (err instanceof ApiError ? err.code : '') {
    case 'DEPTH_EXCEEDED':
      return [message('error', describe(err)), message('muted', `This navigation allows nesting ${err.error.maxDepth} level(s) deep; the tree you sent is ${err.error.actualDepth} deep. Move items up a level (Alt+←) and save again.`)];
    case 'INVALID_ENTRY_REFERENCE':
      return [message('error', describe(err)), fieldErrors(err.fields), message('muted', 'An entry link must point to an existing entry in a collection this navigation offers.')];
  }
  return [message('error', describe(err)), fieldErrors(err.fields)];
}

export async function render(ctx, view, handle) {
  if (!handle) {
    const { body } = await api('GET', '/navigation');
    show(view, h('h1', {}, 'Navigation'),
      body.data.length
        ? h('ul', { class: 'cards' }, body.data.map((n) => h('li', {}, ctx.link(ctx.url(`/navigation/${enc(n.handle)}`), n.title || n.handle))))
        : message('muted', 'This site defines no navigation.'));
    return;
  }
  const [res, bp] = await Promise.all([api('GET', `/navigation/${enc(handle)}`), api('GET', `/navigation/${enc(handle)}/blueprint`).then((r) => r.body)]);
  let etag = res.headers.get('ETag');
  const builtIn = ['label', 'url', 'entry', 'external', 'children'];
  const hasExtras = (bp.data?.tabs ?? []).some((t) => [...(t.fields ?? []), ...(t.sections ?? []).flatMap((x) => x.fields ?? [])].some((f) => !builtIn.includes(f.handle)));
  const nav = res.body.data;
  const maxDepth = Number.isInteger(nav.max_depth) ? nav.max_depth : null;
  const allowed = Array.isArray(nav.collections) && nav.collections.length ? nav.collections : ctx.collections.map((c) => c.handle);
  const canEdit = ctx.can('navigation', 'edit');
  const items = editable(nav.items);
  let selected = null; // the item being edited
  const live = h('p', { class: 'sr-only', 'aria-live': 'assertive' });
  const note = h('div', { class: 'notice', role: 'status' });
  const treeEl = h('div', { class: 'nav-tree' });
  const editor = h('div', { class: 'nav-item-editor' });
  let dragFrom = null;
  let entryOptions = null;

  const say = (text) => { live.textContent = ''; live.textContent = text; };
  const changed = () => { ctx.dirty = true; };

  function pathOf(target, list = items, p = []) {
    for (let k = 0; k < list.length; k++) {
      if (list[k] === target) return [...p, k];
      const sub = Array.isArray(list[k].children) ? pathOf(target, list[k].children, [...p, k]) : null;
      if (sub) return sub;
    }
    return null;
  }

  function act(item, op) {
    const r = move(items, pathOf(item), op, maxDepth);
    if (r.error) { say(r.error); show(note, message('error', r.error)); return; }
    changed();
    show(note);
    draw(item);
    say(`Moved ${item.label || 'item'} ${{ up: 'up', down: 'down', indent: 'one level deeper', outdent: 'one level up' }[op]}.`);
  }

  function row(item, level) {
    const target = item.entry ? `→ ${item.entry}` : item.url ? item.url : '(heading)';
    const btn = (op, text, label) => h('button', { type: 'button', class: 'icon', 'aria-label': `${label} ${item.label || 'item'}`, onclick: () => act(item, op) }, text);
    const li = h('li', { class: 'nav-node' },
      h('div', { class: `nav-row${item === selected ? ' selected' : ''}`, draggable: canEdit ? 'true' : null,
        ondragstart: (ev) => { dragFrom = item; ev.dataTransfer.effectAllowed = 'move'; ev.dataTransfer.setData('text/plain', item.label ?? ''); },
        ondragover: (ev) => {
          if (!dragFrom || dragFrom === item) return;
          const problem = dropProblem(items, pathOf(dragFrom), pathOf(item), maxDepth);
          if (problem) {
            // Not preventing the default refuses the drop: the pointer shows it cannot go here.
            ev.dataTransfer.dropEffect = 'none';
            ev.currentTarget.classList.add('nodrop');
            if (note.textContent !== problem) { show(note, message('error', problem)); say(problem); }
            return;
          }
          ev.preventDefault();
          ev.dataTransfer.dropEffect = 'move';
          ev.currentTarget.classList.add('drop');
        },
        ondragleave: (ev) => ev.currentTarget.classList.remove('drop', 'nodrop'),
        ondragend: () => { dragFrom = null; for (const r of treeEl.querySelectorAll('.drop, .nodrop')) r.classList.remove('drop', 'nodrop'); },
        ondrop: (ev) => {
          ev.preventDefault();
          if (!dragFrom || dragFrom === item) return;
          const r = moveTo(items, pathOf(dragFrom), pathOf(item), maxDepth);
          const moved = dragFrom;
          dragFrom = null;
          if (r.error) { show(note, message('error', r.error)); say(r.error); draw(); return; }
          changed();
          show(note); // a refusal shown while dragging over another place no longer applies
          draw(moved);
          say(`Moved ${moved.label || 'item'}.`);
        } },
      h('button', { type: 'button', class: 'nav-label', 'data-label': item.label ?? '', 'aria-describedby': 'nav-keys', 'aria-pressed': item === selected ? 'true' : 'false',
        onclick: () => { selected = item; draw(item); },
        onkeydown: (ev) => {
          if (!canEdit || !ev.altKey) return;
          const op = { ArrowUp: 'up', ArrowDown: 'down', ArrowRight: 'indent', ArrowLeft: 'outdent' }[ev.key];
          if (!op) return;
          ev.preventDefault();
          act(item, op);
        } }, item.label || '(no label)'),
      h('span', { class: 'muted nav-target' }, target, item.external ? ' ↗' : '', item.missing ? ' (missing entry)' : ''),
      canEdit ? h('span', { class: 'item-actions' }, btn('up', '↑', 'Move up'), btn('down', '↓', 'Move down'), btn('outdent', '←', 'Outdent'), btn('indent', '→', 'Indent'),
        h('button', { type: 'button', class: 'icon danger-text', 'aria-label': `Remove ${item.label || 'item'}`, onclick: () => remove(item) }, '✕')) : null),
      Array.isArray(item.children) && item.children.length ? h('ul', {}, item.children.map((c) => row(c, level + 1))) : null);
    return li;
  }

  function remove(item) {
    const p = pathOf(item);
    const [list] = (function s() { let l = items; for (const i of p.slice(0, -1)) l = l[i].children; return [l]; })();
    // Removing an item keeps its children: they take its place.
    list.splice(p[p.length - 1], 1, ...(item.children ?? []));
    if (selected === item) selected = null;
    changed();
    draw();
    say(`Removed ${item.label || 'item'}.`);
  }

  function draw(focus) {
    show(treeEl, items.length ? h('ul', { class: 'tree-root', 'aria-label': `${nav.title || handle} items` }, items.map((it) => row(it, 0))) : message('muted', 'No items yet.'));
    drawEditor();
    if (focus) [...treeEl.querySelectorAll('.nav-label')].find((b) => b.closest('.nav-node') && itemOf(b) === focus)?.focus();
  }
  // itemOf finds the item of a label button by its position in the drawn tree.
  function itemOf(button) {
    const flat = [];
    const walk = (list) => { for (const it of list) { flat.push(it); if (Array.isArray(it.children)) walk(it.children); } };
    walk(items);
    return flat[[...treeEl.querySelectorAll('.nav-label')].indexOf(button)];
  }

  async function drawEditor() {
    if (!selected || !canEdit) return show(editor);
    const it = selected;
    const kind = set(it.entry) ? 'entry' : set(it.url) ? 'url' : 'heading';
    const label = h('input', { type: 'text', id: 'nav-label', value: it.label ?? '', oninput: (ev) => { it.label = ev.target.value; changed(); } });
    const url = h('input', { type: 'text', id: 'nav-url', value: it.url ?? '', oninput: (ev) => { it.url = ev.target.value; changed(); } });
    const entry = h('select', { id: 'nav-entry', onchange: (ev) => { it.entry = ev.target.value; changed(); } }, h('option', { value: '' }, 'Choose an entry…'));
    const external = h('input', { type: 'checkbox', id: 'nav-external', checked: it.external === true, onchange: (ev) => { if (ev.target.checked) it.external = true; else delete it.external; changed(); } });
    const kindSel = h('select', { id: 'nav-kind', onchange: (ev) => {
      if (ev.target.value !== 'url') delete it.url;
      if (ev.target.value !== 'entry') delete it.entry;
      changed();
      drawEditor();
    } }, [['url', 'A web address'], ['entry', 'An entry'], ['heading', 'Nothing (a heading)']].map(([v, t]) => h('option', { value: v, selected: v === kind }, t)));
    // The blueprint's own fields for items (an icon, say) follow the built-in ones.
    const extra = hasExtras ? buildForm({ blueprint: bp.data, fieldsets: bp.fieldsets, values: it, isNew: false, skip: builtIn, preview: previewer(ctx), ctx,
      onInput: () => {
        const v = extra.values();
        for (const c of extra.controls) { if (Object.hasOwn(v, c.def.handle) && v[c.def.handle] !== null) it[c.def.handle] = v[c.def.handle]; else delete it[c.def.handle]; }
        changed();
      } }) : null;
    show(editor, h('h2', {}, `Edit “${it.label || 'item'}”`),
      h('div', { class: 'field' }, h('label', { for: 'nav-label' }, 'Label'), label),
      h('div', { class: 'field' }, h('label', { for: 'nav-kind' }, 'Links to'), kindSel),
      kind === 'url' ? h('div', { class: 'field' }, h('label', { for: 'nav-url' }, 'Address'), url) : null,
      kind === 'entry' ? h('div', { class: 'field' }, h('label', { for: 'nav-entry' }, 'Entry'), entry) : null,
      kind !== 'heading' ? h('label', { class: 'inline', for: 'nav-external' }, external, ' Open in a new tab') : null,
      extra?.el,
      h('button', { type: 'button', class: 'secondary', onclick: () => { const s = selected; selected = null; draw(s); } }, 'Done'));
    if (kind === 'entry') {
      entryOptions ??= Promise.all(allowed.map((c) => api('GET', `/entries/${enc(c)}?limit=1000&sort=title`)
        .then((r) => [c, r.body.data]).catch(() => [c, []])));
      for (const [c, list] of await entryOptions) {
        entry.append(h('optgroup', { label: ctx.collections.find((x) => x.handle === c)?.title || c },
          list.map((e) => h('option', { value: `${c}/${e.slug}`, selected: it.entry === `${c}/${e.slug}` }, e.title || e.slug))));
      }
      if (it.entry && ![...entry.options].some((o) => o.value === it.entry)) entry.append(h('option', { value: it.entry, selected: true }, `${it.entry} (missing)`));
    }
  }

  const save = h('button', { type: 'submit' }, 'Save');
  const form = h('form', { class: 'editor', novalidate: true },
    h('p', { class: 'muted', id: 'nav-keys' }, canEdit ? 'Select an item to edit it. Alt+↑/↓ moves it among its siblings, Alt+→ puts it under the item above, Alt+← moves it up a level; or drag it onto another item.' : ''),
    h('p', { class: 'muted' }, maxDepth === null ? 'Any depth.' : `At most ${maxDepth} level(s) of nesting (0 = a flat list).`, allowed.length ? ` Entries from: ${allowed.join(', ')}.` : ''),
    treeEl, live,
    canEdit ? h('div', { class: 'row' }, h('button', { type: 'button', class: 'secondary', onclick: () => { const it = { label: 'New item', url: '/' }; items.push(it); selected = it; changed(); draw(it); } }, 'Add item')) : null,
    editor, note,
    h('div', { class: 'actions' }, canEdit ? save : message('muted', 'You may view but not edit navigation.')));
  form.addEventListener('input', changed);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const both = urlAndEntry(items);
    if (both.length) {
      return show(note, message('error', 'An item links to a url or to an entry, not both.'), fieldErrors(Object.fromEntries(both.map((p) => [p, 'has both "url" and "entry"']))));
    }
    save.disabled = true;
    try {
      const out = await api('PUT', `/navigation/${enc(handle)}`, { json: { items }, headers: etag ? { 'If-Match': etag } : {} });
      etag = out.headers.get('ETag');
      items.splice(0, items.length, ...editable(out.body.data.items));
      selected = null;
      ctx.dirty = false;
      draw();
      show(note, message('ok', `Saved at ${new Date().toLocaleTimeString()}.`));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'CONFLICT') {
        show(note, h('div', { class: 'conflict', role: 'alert' }, h('p', { class: 'error' }, 'This navigation was changed by someone else after you opened it, so your tree was not saved.'),
          h('button', { type: 'button', class: 'secondary', onclick: () => { ctx.dirty = false; render(ctx, view, handle); } }, 'Reload the current tree')));
      } else {
        show(note, ...explain(err));
      }
    } finally {
      save.disabled = false;
    }
  });
  show(view, h('p', { class: 'crumbs' }, ctx.link(ctx.url('/navigation'), 'Navigation'), ' / ', handle), h('h1', {}, nav.title || handle), form);
  draw();
}
