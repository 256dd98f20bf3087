// fields.js: forms built from blueprints. buildForm turns a blueprint (tabs, sections, fields)
// into real inputs, one widget per field type, and reads the values back in the shape the API
// stores. Unknown types get a labelled JSON editor. The same rules the server checks (required,
// min, max, regex, url, email, numeric_range, slug, whole numbers) run here before saving.
import { api, describe } from './api.js';
import { h, message, show } from './dom.js';
import { markdownEditor } from './markdown.js';
import { richTextEditor, visibleText } from './richtext.js';

let seq = 0;
const uid = (p) => `${p}-${++seq}`;
const enc = encodeURIComponent;

/** isEmpty is the server's notion of a missing value for `required`. */
export function isEmpty(v) {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

/** optionList reads a select's options: options.options / options.choices as a list or a map. */
export function optionList(def) {
  const o = def.options ?? {};
  const src = o.options ?? o.choices ?? [];
  if (Array.isArray(src)) {
    return src.map((x) => (x && typeof x === 'object' ? [String(x.value ?? x.key ?? ''), String(x.label ?? x.value ?? '')] : [String(x), String(x)]));
  }
  if (src && typeof src === 'object') return Object.entries(src).map(([k, v]) => [String(k), String(v)]);
  return [];
}

/** visible evaluates a field's visibility rule against the values, as the server does. */
export function visible(def, values) {
  const rule = def.visibility;
  if (!rule || !rule.field) return true;
  const got = values[rule.field];
  let want = rule.value;
  if (typeof got === 'boolean') want = want === true || want === 'true';
  else if (typeof got === 'number' && typeof want === 'string' && want.trim() !== '') want = Number(want);
  switch (rule.operator) {
    case 'equals': return got === want;
    case 'not_equals': return got !== want;
    case 'contains': return typeof got === 'string' && got.includes(String(want));
    case 'empty': return got === undefined || got === null || got === '';
    case 'not_empty': return !(got === undefined || got === null || got === '');
  }
  return true;
}

const textLike = new Set(['text', 'slug', 'markdown', 'code', 'tiptap']);

/** check returns the messages the server's rules would give for one visible field's value. Rich
 * text is measured by its visible text, in characters (code points), as the server does. */
export function check(def, value) {
  const out = [];
  const rules = (def.validate ?? []).map((r) => { const i = String(r).indexOf(':'); return i < 0 ? [String(r), ''] : [String(r).slice(0, i), String(r).slice(i + 1)]; });
  const required = def.required === true || rules.some(([n]) => n === 'required');
  const rich = def.type === 'tiptap' && !isEmpty(value) ? visibleText(value) : null;
  if (isEmpty(value) || (def.type === 'toggle' && value === undefined) || (rich !== null && rich.trim() === '')) {
    if (required) out.push('This field is required');
    return out;
  }
  if (def.type === 'slug' && !/^[a-z0-9-]+$/.test(value)) out.push('Must contain only lowercase letters, numbers, and hyphens');
  if (def.type === 'number' && def.options?.integer === true && !Number.isInteger(value)) out.push('Must be a whole number');
  if (rich !== null) value = rich;
  for (const [name, p] of rules) {
    const n = Number(p);
    if (textLike.has(def.type) && typeof value === 'string') {
      const len = rich !== null ? [...value].length : value.length;
      if (name === 'min' && len < n) out.push(`Must be at least ${p} characters`);
      if (name === 'max' && len > n) out.push(`Must be at most ${p} characters`);
      if (name === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) out.push('Must be a valid email address');
      if (name === 'url') { try { new URL(value); } catch { out.push('Must be a valid URL'); } }
      if (name === 'regex') { try { if (!new RegExp(p).test(value)) out.push(`Must match pattern ${p}`); } catch { /* the server ignores a bad pattern */ } }
    }
    if (def.type === 'number' && typeof value === 'number') {
      if (name === 'min' && value < n) out.push(`Must be at least ${p}`);
      if (name === 'max' && value > n) out.push(`Must be at most ${p}`);
      if (name === 'numeric_range') {
        const [lo, hi] = p.split(',').map(Number);
        if (!Number.isNaN(lo) && value < lo) out.push(`Must be at least ${lo}`);
        if (!Number.isNaN(hi) && value > hi) out.push(`Must be at most ${hi}`);
      }
    }
  }
  return out;
}

/** slugify makes a slug from a title: lowercase ASCII letters, digits and hyphens. */
export function slugify(s) {
  return String(s).normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 100);
}

/**
 * buildForm builds the fields of a blueprint. opts: blueprint ({tabs}), fieldsets (by handle,
 * for replicator sets), values (the stored values), isNew (defaults pre-filled), skip (handles
 * drawn elsewhere), preview (Markdown → HTML, or null), ctx, onInput. Returns {el, values(),
 * validate(), showErrors(fields), clearErrors(), controls}.
 */
export function buildForm(opts) {
  const { blueprint, values = {}, isNew = false, skip = [] } = opts;
  const controls = []; // top-level controls, in order
  const tabs = (blueprint?.tabs ?? []).map((t) => ({ ...t, fields: (t.fields ?? []).filter((f) => !skip.includes(f.handle)) }));
  const tabEls = [];
  const onInput = () => { refresh(); opts.onInput?.(); };

  const panels = tabs.map((tab, i) => {
    const own = tab.fields.map((f) => control(f, values, isNew, opts, onInput));
    const sections = (tab.sections ?? []).map((s) => {
      const cs = (s.fields ?? []).filter((f) => !skip.includes(f.handle)).map((f) => control(f, values, isNew, opts, onInput));
      return { cs, el: h('fieldset', { class: 'section' }, h('legend', {}, s.display || s.handle), cs.map((c) => c.el)) };
    });
    const id = uid('tab');
    const panel = h('div', { role: tabs.length > 1 ? 'tabpanel' : null, id: `${id}-panel`, 'aria-labelledby': tabs.length > 1 ? `${id}-tab` : null, class: 'tab-panel', hidden: i > 0 },
      own.map((c) => c.el), sections.map((s) => s.el));
    const button = h('button', { type: 'button', role: 'tab', id: `${id}-tab`, 'aria-controls': `${id}-panel`, 'aria-selected': i === 0 ? 'true' : 'false', tabindex: i === 0 ? '0' : '-1', class: 'tab', 'data-tab': tab.handle, onclick: () => select(i) },
      tab.display || tab.handle, h('span', { class: 'tab-error', hidden: true }, ' (has errors)'));
    tabEls.push({ button, panel, controls: [...own, ...sections.flatMap((s) => s.cs)] });
    return panel;
  });
  for (const t of tabEls) controls.push(...t.controls);

  function select(i, focus = false) {
    tabEls.forEach((t, j) => {
      t.button.setAttribute('aria-selected', i === j ? 'true' : 'false');
      t.button.tabIndex = i === j ? 0 : -1;
      t.panel.hidden = i !== j;
    });
    if (focus) tabEls[i].button.focus();
  }
  const tablist = tabs.length > 1 ? h('div', {
    role: 'tablist', class: 'tabs', 'aria-label': 'Field groups',
    onkeydown: (ev) => {
      const i = tabEls.findIndex((t) => t.button === document.activeElement);
      if (i < 0) return;
      const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabEls.length - 1 }[ev.key];
      if (next === undefined) return;
      ev.preventDefault();
      select((next + tabEls.length) % tabEls.length, true);
    },
  }, tabEls.map((t) => t.button)) : null;

  const el = h('div', { class: 'blueprint-form' }, tablist, panels);

  function current() {
    const out = {};
    for (const c of controls) {
      const v = c.get();
      if (v !== undefined) out[c.def.handle] = v;
    }
    return out;
  }
  function refresh() {
    const vals = current();
    for (const c of controls) c.el.hidden = c.def.type === 'hidden' || !visible(c.def, vals);
  }
  refresh();

  function clearErrors() {
    for (const c of controls) c.setError([]);
    for (const t of tabEls) { t.button.classList.remove('has-error'); t.button.lastChild.hidden = true; }
  }
  /** showErrors puts messages at their fields, marks their tabs, opens the first such tab and
   * returns the messages that belong to no field. */
  function showErrors(fields) {
    clearErrors();
    const rest = {};
    let first = null;
    for (const [k, msgs] of Object.entries(fields ?? {})) {
      const c = controls.find((x) => x.def.handle === k);
      if (!c) { rest[k] = msgs; continue; }
      c.setError([].concat(msgs));
      const ti = tabEls.findIndex((t) => t.controls.includes(c));
      if (ti >= 0) { tabEls[ti].button.classList.add('has-error'); tabEls[ti].button.lastChild.hidden = false; }
      if (!first) first = [c, ti];
    }
    if (first) {
      if (first[1] >= 0) select(first[1]);
      first[0].focus();
    }
    return rest;
  }
  function validate() {
    const vals = current();
    const errs = {};
    for (const c of controls) {
      if (c.def.type === 'hidden' || !visible(c.def, vals)) continue;
      const msgs = [...c.problems(), ...check(c.def, vals[c.def.handle])];
      if (msgs.length) errs[c.def.handle] = msgs;
    }
    return errs;
  }
  return { el, values: current, validate, showErrors, clearErrors, controls, refresh };
}

/** defaultOf returns a field's default for a new value, copied so edits never change the blueprint. */
const defaultOf = (def) => (def.default === undefined ? undefined : structuredClone(def.default));

/**
 * control builds one field: a wrapper with label, instructions, the widget and an error slot.
 * Its get() returns the value to store (undefined = leave out), problems() what the widget
 * itself knows is wrong (JSON that does not parse), setError(msgs) shows messages.
 */
function control(def, values, isNew, opts, onInput) {
  const id = uid(`f-${def.handle}`);
  const errId = `${id}-err`;
  const helpId = `${id}-help`;
  const start = Object.hasOwn(values, def.handle) ? values[def.handle] : (isNew ? defaultOf(def) : undefined);
  const label = def.display || def.handle;
  const w = widget(def, start, { id, label, describedby: `${def.instructions ? helpId : ''} ${errId}`.trim(), opts, onInput, isNew });
  const err = h('div', { class: 'field-error', id: errId });
  const required = def.required === true || (def.validate ?? []).includes('required');
  const labelEl = w.group || def.type === 'hidden'
    ? null
    : h('label', { for: id }, label, required ? h('span', { class: 'req', 'aria-hidden': 'true' }, ' *') : null, required ? h('span', { class: 'sr-only' }, ' (required)') : null);
  const el = h('div', { class: `field field-${def.type}`, 'data-field': def.handle },
    w.group ? null : labelEl,
    def.instructions ? h('small', { class: 'help', id: helpId }, def.instructions) : null,
    w.el, err);
  if (w.group) {
    // Groups (checkbox lists, sets) label themselves with a legend.
    w.legend?.append(required ? h('span', { class: 'req', 'aria-hidden': 'true' }, ' *') : '', required ? h('span', { class: 'sr-only' }, ' (required)') : '');
  }
  el.addEventListener('input', onInput);
  el.addEventListener('change', onInput);
  return {
    def, el,
    get: w.get,
    problems: w.problems ?? (() => []),
    focus: () => (w.focus ? w.focus() : el.querySelector('input, select, textarea, button')?.focus()),
    setError(msgs) {
      show(err, msgs.join(' '));
      el.classList.toggle('invalid', msgs.length > 0);
      for (const i of el.querySelectorAll(`#${CSS.escape(id)}`)) i.setAttribute('aria-invalid', msgs.length ? 'true' : 'false');
    },
  };
}

/** widget returns {el, get, focus?, problems?, group?, legend?} for one field type. */
function widget(def, v, a) {
  const o = def.options ?? {};
  const base = { id: a.id, 'aria-describedby': a.describedby || null };
  switch (def.type) {
    case 'text': {
      const i = h('input', { ...base, type: 'text', value: v ?? '' });
      return { el: i, get: () => (i.value === '' && v === undefined ? undefined : i.value) };
    }
    case 'slug': {
      const i = h('input', { ...base, type: 'text', value: v ?? '', pattern: '[a-z0-9-]+', spellcheck: 'false' });
      // A new value follows the title until the editor types in it.
      if (a.isNew && !v) followTitle(i);
      return { el: i, get: () => (i.value === '' && v === undefined ? undefined : i.value) };
    }
    case 'markdown': {
      const m = markdownEditor({ ...base, value: v ?? '', label: a.label, preview: a.opts.preview });
      return { el: m.el, get: () => (m.value() === '' && v === undefined ? undefined : m.value()), focus: m.focus };
    }
    case 'tiptap': {
      // Rich text edits in tiptap and is stored as its JSON document (see docs/cp.md).
      const r = richTextEditor({ id: a.id, describedby: a.describedby, value: v, label: a.label, preview: a.opts.preview });
      return { el: r.el, get: r.get, focus: r.focus };
    }
    case 'number': {
      const i = h('input', { ...base, type: 'number', step: o.integer === true ? '1' : 'any', inputmode: o.integer === true ? 'numeric' : 'decimal', value: v ?? '' });
      return { el: i, get: () => (i.value === '' ? (v === undefined ? undefined : null) : Number(i.value)), problems: () => (i.validity.badInput ? ['Must be a number'] : []) };
    }
    case 'toggle': {
      const i = h('input', { ...base, type: 'checkbox', role: 'switch', checked: v === true });
      const touched = { yes: v !== undefined };
      i.addEventListener('change', () => { touched.yes = true; });
      return { el: h('div', { class: 'toggle' }, i, h('span', { class: 'muted', 'aria-hidden': 'true' }, 'On / off')), get: () => (touched.yes ? i.checked : undefined) };
    }
    case 'select': return selectWidget(def, v, base, a);
    case 'multiselect': return checkList(optionList(def), Array.isArray(v) ? v.map(String) : [], a, { legend: a.label });
    case 'date': return dateWidget(def, v, base);
    case 'asset': return assetWidget(def, v, a);
    case 'entries': return entriesWidget(def, v, a);
    case 'taxonomy': return taxonomyWidget(def, v, a);
    case 'replicator': case 'blocks': case 'grid': return setsWidget(def, v, a);
    case 'yaml': case 'code': return codeWidget(def, v, base);
    case 'hidden': return { el: h('span', { hidden: true }), get: () => v };
  }
  return jsonWidget(v, base, a.label, `Type “${def.type}” has no editor here: edit its value as JSON.`);
}

/** followTitle fills a slug input from the form's title input until the editor edits the slug. */
export function followTitle(input) {
  let edited = false;
  input.addEventListener('input', () => { edited = input.value !== ''; });
  queueMicrotask(() => {
    const form = input.closest('form');
    const title = form?.querySelector('[data-role="title"]');
    if (!title) return;
    title.addEventListener('input', () => { if (!edited) input.value = slugify(title.value); });
  });
}

function jsonWidget(v, base, label, note) {
  const t = h('textarea', { ...base, class: 'mono', rows: 6, spellcheck: 'false', value: v === undefined ? '' : JSON.stringify(v, null, 2) });
  const parse = () => { if (t.value.trim() === '') return [undefined, '']; try { return [JSON.parse(t.value), '']; } catch (e) { return [undefined, `Not valid JSON: ${e.message}`]; } };
  return {
    el: h('div', {}, note ? h('p', { class: 'muted' }, note) : null, t),
    get: () => parse()[0] ?? (t.value.trim() === '' && v !== undefined ? null : undefined),
    problems: () => (parse()[1] ? [parse()[1]] : []),
    focus: () => t.focus(),
  };
}

function selectWidget(def, v, base, a) {
  const opts = optionList(def);
  const s = h('select', base, h('option', { value: '' }, def.required ? 'Choose…' : '(none)'),
    opts.map(([val, text]) => h('option', { value: val, selected: String(v ?? '') === val }, text)));
  if (v !== undefined && v !== null && v !== '' && !opts.some(([val]) => val === String(v))) {
    s.append(h('option', { value: String(v), selected: true }, `${v} (not an option)`));
  }
  let el = s;
  if (opts.length > 10) {
    // Long lists get a filter that hides the options it does not match.
    const f = h('input', { type: 'search', 'aria-label': `Filter the options of ${a.label}`, placeholder: 'Filter…' });
    f.addEventListener('input', () => { for (const o of s.options) if (o.value) o.hidden = !o.textContent.toLowerCase().includes(f.value.toLowerCase()); });
    el = h('div', { class: 'filtered' }, f, s);
  }
  return { el, get: () => (s.value === '' ? (v === undefined ? undefined : null) : s.value), focus: () => s.focus() };
}

/** checkList is a group of checkboxes (multiselect, taxonomy terms), filterable when long. */
function checkList(options, chosen, a, { legend, max = 0, extra = null }) {
  const set = new Set(chosen);
  const list = h('div', { class: 'checks' });
  const draw = () => show(list, options.map(([val, text]) => {
    const cid = uid('c');
    return h('label', { for: cid, class: 'inline' }, h('input', { type: 'checkbox', id: cid, value: val, checked: set.has(val),
      onchange: (ev) => {
        if (ev.target.checked) set.add(val); else set.delete(val);
        if (max > 0 && set.size > max) { set.delete(val); ev.target.checked = false; }
      } }), text);
  }));
  draw();
  const lg = h('legend', {}, legend);
  const filter = options.length > 10 ? h('input', { type: 'search', placeholder: 'Filter…', 'aria-label': `Filter ${legend}`,
    oninput: (ev) => { for (const l of list.children) l.hidden = !l.textContent.toLowerCase().includes(ev.target.value.toLowerCase()); } }) : null;
  const el = h('fieldset', { class: 'group', id: a.id, 'aria-describedby': a.describedby || null }, lg, filter, list, extra);
  return {
    el, group: true, legend: lg,
    get: () => { const out = options.map(([val]) => val).filter((x) => set.has(x)); for (const x of set) if (!out.includes(x)) out.push(x); return out.length || chosen.length ? out : undefined; },
    add(val, text, tick = true) { options.push([val, text]); if (tick) set.add(val); draw(); },
    focus: () => list.querySelector('input')?.focus(),
  };
}

/** dateWidget uses the browser's date or date-time picker and writes the value back in the
 * shape it was stored in (a date stays a date; a time keeps its seconds and zone suffix). */
function dateWidget(def, v, base) {
  const s = typeof v === 'string' ? v : '';
  const withTime = def.options?.time_enabled === true || /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(s);
  const i = h('input', { ...base, type: withTime ? 'datetime-local' : 'date', value: withTime ? s.slice(0, 16).replace(' ', 'T') : s.slice(0, 10) });
  return {
    el: i,
    get: () => {
      if (i.value === '') return v === undefined ? undefined : null;
      if (!withTime) return i.value + s.slice(10).replace(/^[T ].*/, '');
      const tail = s.length > 16 ? s.slice(16) : '';
      if (s && i.value === s.slice(0, 16).replace(' ', 'T')) return s; // unchanged: exactly as stored
      return (s.charAt(10) === ' ' ? i.value.replace('T', ' ') : i.value) + tail;
    },
  };
}

function codeWidget(def, v, base) {
  const mode = def.type === 'yaml' ? 'yaml' : String(def.options?.mode ?? def.options?.language ?? '');
  const t = h('textarea', { ...base, class: 'mono code', rows: 8, spellcheck: 'false', wrap: 'off', value: v ?? '' });
  const status = h('div', { class: 'syntax', role: 'status' });
  const problems = () => {
    if (mode === 'json' && t.value.trim()) { try { JSON.parse(t.value); } catch (e) { return [`JSON syntax error: ${e.message}`]; } }
    if (mode === 'yaml') return yamlProblems(t.value);
    return [];
  };
  const update = () => show(status, problems().map((p) => h('span', { class: 'error' }, p)));
  t.addEventListener('input', update);
  t.addEventListener('keydown', (ev) => {
    // Tab indents inside a code editor; Escape then Tab leaves it (keyboard users are not trapped).
    if (ev.key === 'Tab' && !ev.shiftKey && !t.dataset.escaped) {
      ev.preventDefault();
      t.setRangeText('  ', t.selectionStart, t.selectionEnd, 'end');
      t.dispatchEvent(new Event('input', { bubbles: true }));
    }
    t.dataset.escaped = ev.key === 'Escape' ? '1' : '';
  });
  update();
  return {
    el: h('div', {}, h('small', { class: 'muted' }, mode ? `${mode.toUpperCase()} · Tab indents; Esc then Tab leaves` : 'Tab indents; Esc then Tab leaves'), t, status),
    get: () => (t.value === '' && v === undefined ? undefined : t.value), problems, focus: () => t.focus(),
  };
}

/** yamlProblems finds the YAML mistakes editors make most: tab indentation, unclosed quotes and
 * brackets, and a key without its colon-space. It is a guard, not a parser. */
export function yamlProblems(text) {
  const out = [];
  text.split('\n').forEach((line, n) => {
    const at = `line ${n + 1}`;
    if (/^\t/.test(line) || /^ *\t/.test(line)) out.push(`YAML syntax error on ${at}: tabs are not allowed for indentation`);
    const body = line.replace(/\s+#.*$/, '').trim();
    if (!body || body.startsWith('#')) return;
    const stripped = body.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, '');
    if (/["']/.test(stripped.replace(/\w'\w/g, ''))) out.push(`YAML syntax error on ${at}: unclosed quote`);
    const opens = (stripped.match(/[[{]/g) ?? []).length;
    const closes = (stripped.match(/[\]}]/g) ?? []).length;
    if (opens !== closes && !/[|>][-+]?$/.test(body)) out.push(`YAML syntax error on ${at}: unbalanced brackets`);
    if (/^[A-Za-z_][\w -]*:[^\s/]/.test(body) && !/^[A-Za-z_][\w-]*:\/\//.test(body)) out.push(`YAML syntax error on ${at}: a colon after a key needs a space`);
  });
  return out.slice(0, 5);
}

/** ordered is a reorderable list (up/down buttons and Alt+Arrow keys) of items drawn by draw. */
function ordered(items, draw, onChange) {
  const list = h('ol', { class: 'picked' });
  const redraw = () => show(list, items.map((it, i) => {
    const li = h('li', { tabindex: '-1', 'data-index': String(i), onkeydown: (ev) => {
      if (!ev.altKey || (ev.key !== 'ArrowUp' && ev.key !== 'ArrowDown')) return;
      ev.preventDefault();
      move(i, ev.key === 'ArrowUp' ? -1 : 1);
    } }, draw(it, i),
    h('span', { class: 'item-actions' },
      h('button', { type: 'button', class: 'icon', 'aria-label': `Move ${labelOf(it)} up`, disabled: i === 0, onclick: () => move(i, -1) }, '↑'),
      h('button', { type: 'button', class: 'icon', 'aria-label': `Move ${labelOf(it)} down`, disabled: i === items.length - 1, onclick: () => move(i, 1) }, '↓'),
      h('button', { type: 'button', class: 'icon', 'aria-label': `Remove ${labelOf(it)}`, onclick: () => { items.splice(i, 1); changed(); } }, '✕')));
    return li;
  }));
  const labelOf = (it) => (typeof it === 'string' ? it : it.label ?? it.value);
  function move(i, d) {
    const j = i + d;
    if (j < 0 || j >= items.length) return;
    [items[i], items[j]] = [items[j], items[i]];
    changed();
    list.querySelectorAll('li')[j]?.querySelector(`button[aria-label^="Move"]:not([disabled])`)?.focus();
  }
  function changed() { redraw(); onChange(); list.dispatchEvent(new Event('input', { bubbles: true })); }
  redraw();
  // changed() is an edit (the form becomes dirty); redraw() only shows what is there.
  return { el: list, changed, redraw };
}

const imageExt = /\.(png|jpe?g|gif|webp|avif|svg)$/i;

/** assetURL is where the public site serves an asset reference: a path inside the asset
 * folder ("photos/a.png" or "assets::photos/a.png"), or an address used as it is ("/assets/a.png",
 * "https://..."). */
export function assetURL(ref) {
  const p = String(ref);
  if (p.startsWith('/') || /^https?:\/\//i.test(p)) return p;
  return `/assets/${p.replace(/^assets::/, '').split('/').map(enc).join('/')}`;
}

function assetWidget(def, v, a) {
  const max = Number.isInteger(def.options?.max_files) ? def.options.max_files : 1;
  const single = max === 1;
  const items = (Array.isArray(v) ? v : (v ? [v] : [])).map(String);
  const note = h('div', { class: 'notice', role: 'status' });
  const list = ordered(items, (p) => h('span', { class: 'asset-item' },
    imageExt.test(p) ? h('img', { src: assetURL(p), alt: '', width: 48, height: 48, class: 'thumb' }) : h('span', { class: 'thumb file', 'aria-hidden': 'true' }, '📄'),
    h('span', {}, p)), () => {});
  const choose = (p) => {
    if (single) items.splice(0, items.length, p);
    else if (!items.includes(p) && (max === 0 || items.length < max)) items.push(p);
    list.changed();
  };
  const file = h('input', { type: 'file', 'aria-label': `Upload a file to ${a.label}`, class: 'upload-input' });
  file.addEventListener('change', async (ev) => {
    ev.stopPropagation();
    if (!file.files.length) return;
    const form = new FormData();
    form.append('file', file.files[0]);
    const dir = typeof def.options?.folder === 'string' ? def.options.folder : '';
    if (dir) form.append('directory', dir);
    show(note, message('muted', `Uploading ${file.files[0].name}…`));
    try {
      const res = await api('POST', '/assets', { form });
      choose(res.body.data.path);
      show(note, message('ok', `Uploaded ${res.body.data.filename}.`));
    } catch (err) {
      show(note, message('error', describe(err)));
    }
    file.value = '';
  });
  const pickBtn = h('button', { type: 'button', class: 'secondary', onclick: () => pickAsset(a.label, choose) }, 'Choose from library');
  const lg = h('legend', {}, a.label);
  return {
    el: h('fieldset', { class: 'group', id: a.id, 'aria-describedby': a.describedby || null }, lg,
      list.el, h('div', { class: 'row' }, pickBtn, h('label', { class: 'inline upload-label' }, 'Upload: ', file)), note,
      h('small', { class: 'muted' }, single ? 'One file.' : max > 1 ? `Up to ${max} files.` : 'Any number of files.')),
    group: true, legend: lg,
    get: () => (single ? (items[0] ?? (v === undefined ? undefined : null)) : (items.length || v !== undefined ? [...items] : undefined)),
    focus: () => pickBtn.focus(),
  };
}

/** pickAsset opens a dialog over the asset library (folders, thumbnails) and calls done(path). */
async function pickAsset(label, done) {
  const body = h('div', { class: 'picker-body' });
  const dlg = h('dialog', { class: 'picker', 'aria-label': `Choose a file for ${label}` },
    h('div', { class: 'toolbar' }, h('h2', {}, `Choose a file for ${label}`), h('span', { class: 'spacer' }),
      h('button', { type: 'button', class: 'secondary', onclick: () => dlg.close() }, 'Cancel')), body);
  dlg.addEventListener('close', () => dlg.remove());
  document.body.append(dlg);
  dlg.showModal();
  const open = async (dir) => {
    try {
      const { body: res } = await api('GET', `/assets${dir ? `?${new URLSearchParams({ directory: dir })}` : ''}`);
      show(body,
        dir ? h('button', { type: 'button', class: 'secondary', onclick: () => open(dir.split('/').slice(0, -1).join('/')) }, '← Up') : null,
        h('ul', { class: 'asset-grid' },
          (res.directories ?? []).map((d) => h('li', {}, h('button', { type: 'button', class: 'tile', onclick: () => open(dir ? `${dir}/${d}` : d) }, h('span', { class: 'thumb file', 'aria-hidden': 'true' }, '📁'), d))),
          res.data.filter((x) => !x.directory).map((x) => h('li', {}, h('button', { type: 'button', class: 'tile', 'data-path': x.path, onclick: () => { done(x.path); dlg.close(); } },
            imageExt.test(x.path) ? h('img', { src: assetURL(x.path), alt: '', class: 'thumb', width: 96, height: 96, loading: 'lazy' }) : h('span', { class: 'thumb file', 'aria-hidden': 'true' }, '📄'),
            x.filename)))));
      body.querySelector('button')?.focus();
    } catch (err) {
      show(body, message('error', describe(err)));
    }
  };
  open('');
}

/** entriesWidget picks entries ("collection/slug") of the allowed collections by searching
 * their titles as the editor types. */
function entriesWidget(def, v, a) {
  const allowed = Array.isArray(def.options?.collections) && def.options.collections.length ? def.options.collections.map(String) : (a.opts.ctx?.collections ?? []).map((c) => c.handle);
  const max = Number.isInteger(def.options?.max_items) ? def.options.max_items : 0;
  const items = (Array.isArray(v) ? v : []).map((r) => ({ value: String(r), label: String(r) }));
  const titles = new Map();
  const list = ordered(items, (it) => h('span', {}, titles.get(it.value) ?? it.label, h('span', { class: 'muted' }, ` (${it.value})`)), () => {});
  // Show titles for the stored references.
  for (const it of items) {
    const [c, s] = it.value.split('/');
    if (c && s) api('GET', `/entries/${enc(c)}/${enc(s)}`).then((r) => { titles.set(it.value, r.body.data.title || s); list.redraw(); }).catch(() => {});
  }
  const listId = uid('results');
  const search = h('input', { type: 'search', id: a.id, role: 'combobox', 'aria-expanded': 'false', 'aria-controls': listId, 'aria-autocomplete': 'list', autocomplete: 'off', placeholder: `Search ${allowed.join(', ')}…`, 'aria-describedby': a.describedby || null });
  const results = h('ul', { id: listId, role: 'listbox', class: 'results', hidden: true, 'aria-label': `Entries to add to ${a.label}` });
  let pool = null; // the allowed collections' entries, loaded on first search
  let active = -1;
  const load = async () => {
    if (pool) return pool;
    pool = loadAll();
    return pool;
  };
  const loadAll = async () => {
    const lists = await Promise.all(allowed.map((c) => api('GET', `/entries/${enc(c)}?limit=1000`).then((r) => r.body.data.map((e) => ({ value: `${c}/${e.slug}`, label: e.title || e.slug }))).catch(() => [])));
    const all = lists.flat();
    for (const e of all) titles.set(e.value, e.label);
    return all;
  };
  const pick = (e) => {
    if (!items.some((x) => x.value === e.value) && (max === 0 || items.length < max)) items.push({ ...e });
    search.value = '';
    close();
    list.changed();
    search.focus();
  };
  const close = () => { results.hidden = true; search.setAttribute('aria-expanded', 'false'); search.removeAttribute('aria-activedescendant'); active = -1; };
  const update = async () => {
    const q = search.value.trim().toLowerCase();
    if (!q) return close();
    const all = await load();
    if (search.value.trim().toLowerCase() !== q) return; // a later keystroke has its own answer
    const found = all.filter((e) => e.label.toLowerCase().includes(q) || e.value.includes(q)).slice(0, 20);
    show(results, found.length ? found.map((e, i) => h('li', { role: 'option', id: `${listId}-${i}`, 'aria-selected': 'false', onmousedown: (ev) => { ev.preventDefault(); pick(e); } }, e.label, h('span', { class: 'muted' }, ` ${e.value}`)))
      : h('li', { class: 'muted', role: 'option', 'aria-disabled': 'true' }, 'No matching entries'));
    results.hidden = false;
    search.setAttribute('aria-expanded', 'true');
    results.found = found;
  };
  search.addEventListener('input', (ev) => { ev.stopPropagation(); update(); });
  search.addEventListener('keydown', (ev) => {
    const n = results.found?.length ?? 0;
    if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      ev.preventDefault();
      if (!n) return;
      active = (active + (ev.key === 'ArrowDown' ? 1 : n - 1)) % n;
      results.querySelectorAll('[role=option]').forEach((o, i) => o.setAttribute('aria-selected', i === active ? 'true' : 'false'));
      search.setAttribute('aria-activedescendant', `${listId}-${active}`);
    } else if (ev.key === 'Enter') {
      ev.preventDefault();
      if (n) pick(results.found[Math.max(active, 0)]);
    } else if (ev.key === 'Escape') close();
  });
  // Enter picks here; it must not also submit the form (some input paths send it as keypress).
  search.addEventListener('keypress', (ev) => { if (ev.key === 'Enter') ev.preventDefault(); });
  search.addEventListener('blur', close);
  return {
    el: h('div', { class: 'combo' }, list.el, search, results),
    get: () => (items.length || v !== undefined ? items.map((x) => x.value) : undefined),
    focus: () => search.focus(),
  };
}

/** taxonomyWidget ticks terms of options.taxonomy, and creates a term on the spot when allowed. */
function taxonomyWidget(def, v, a) {
  const tax = String(def.options?.taxonomy ?? def.options?.taxonomies?.[0] ?? '');
  const max = Number.isInteger(def.options?.max_items) ? def.options.max_items : 0;
  const chosen = (Array.isArray(v) ? v : []).map(String);
  const ctx = a.opts.ctx;
  const note = h('div', { role: 'status' });
  const name = h('input', { type: 'text', 'aria-label': `New term for ${a.label}`, placeholder: 'New term' });
  const add = h('button', { type: 'button', class: 'secondary' }, 'Add term');
  const extra = tax && ctx?.can('taxonomies', 'create') ? h('div', { class: 'row' }, name, add, note) : note;
  const w = checkList(chosen.map((s) => [s, s]), chosen, a, { legend: a.label, max, extra });
  if (tax) {
    api('GET', `/taxonomies/${enc(tax)}/terms`).then((r) => {
      for (const t of r.body.data) {
        const i = [...w.el.querySelectorAll('input[type=checkbox]')].find((x) => x.value === t.slug);
        if (i) i.parentElement.lastChild.textContent = t.title || t.slug;
        else w.add(t.slug, t.title || t.slug, false);
      }
    }).catch((err) => show(note, message('error', describe(err))));
  }
  add.addEventListener('click', async () => {
    const title = name.value.trim();
    if (!title) return;
    try {
      const r = await api('POST', `/taxonomies/${enc(tax)}/terms`, { json: { title, slug: slugify(title) } });
      w.add(r.body.data.slug, r.body.data.title || r.body.data.slug);
      name.value = '';
      show(note, message('ok', `Added the term ${title}.`));
      w.el.dispatchEvent(new Event('input', { bubbles: true }));
    } catch (err) {
      show(note, message('error', describe(err)));
    }
  });
  return w;
}

/** setsWidget edits replicator, blocks and grid values: a list of sets, each an object whose
 * _type names its fieldset (grid rows with inline options.fields have no _type). Sets are added
 * from the allowed list, collapsed, moved (buttons, Alt+Arrow keys, drag and drop), duplicated
 * and removed; nobody types _type. */
function setsWidget(def, v, a) {
  const fieldsets = a.opts.fieldsets ?? {};
  const inline = def.type === 'grid' && Array.isArray(def.options?.fields)
    ? def.options.fields.filter((f) => f && f.handle && f.field).map((f) => ({ handle: f.handle, ...f.field })) : null;
  let names = Array.isArray(def.options?.sets) ? def.options.sets.map(String) : [];
  if (!names.length && def.type === 'blocks') names = Object.values(fieldsets).filter((f) => f.is_block).map((f) => f.handle);
  const kinds = inline ? [{ handle: '', display: 'Row', fields: inline }] : names.map((n) => fieldsets[n]).filter(Boolean);
  const kindOf = (item) => (inline ? kinds[0] : fieldsets[item?._type]);
  const items = (Array.isArray(v) ? v : []).map((item) => ({ data: item && typeof item === 'object' ? item : {}, open: false, form: null }));
  const listEl = h('ol', { class: 'sets' });
  const lg = h('legend', {}, a.label);
  const fire = () => listEl.dispatchEvent(new Event('input', { bubbles: true }));
  let dragFrom = -1;

  function newID() { return `set-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`; }
  function snapshot(it) {
    // The values of the set as edited now: the stored object, its own fields replaced.
    if (!it.form) return it.data;
    const out = { ...it.data };
    const vals = it.form.values();
    for (const c of it.form.controls) {
      if (Object.hasOwn(vals, c.def.handle)) out[c.def.handle] = vals[c.def.handle];
    }
    return out;
  }
  function sync() { for (const it of items) { it.data = snapshot(it); } }
  function draw(focus) {
    sync();
    show(listEl, items.map((it, i) => {
      const kind = kindOf(it.data);
      const title = kind ? (kind.display || kind.handle) : `Unknown set “${it.data._type}”`;
      const bodyId = uid('set');
      it.form = kind ? buildForm({ ...a.opts, skip: [], blueprint: { tabs: [{ handle: 'set', fields: kind.fields ?? [] }] }, values: it.data, isNew: false, onInput: null }) : null;
      const body = h('div', { class: 'set-body', id: bodyId, hidden: !it.open }, it.form ? it.form.el : jsonWidget(it.data, {}, title).el);
      const summary = (kind?.fields ?? []).map((f) => it.data[f.handle]).find((x) => typeof x === 'string' && x.trim()) ?? '';
      const head = h('div', { class: 'set-head', draggable: 'true',
        ondragstart: (ev) => { dragFrom = i; ev.dataTransfer.effectAllowed = 'move'; ev.dataTransfer.setData('text/plain', String(i)); } },
        h('button', { type: 'button', class: 'set-toggle', 'aria-expanded': it.open ? 'true' : 'false', 'aria-controls': bodyId, onclick: () => { sync(); it.open = !it.open; draw(`toggle-${i}`); } },
          h('span', { 'aria-hidden': 'true' }, it.open ? '▾ ' : '▸ '), `${i + 1}. ${title}`, summary ? h('span', { class: 'muted' }, ` — ${String(summary).slice(0, 60)}`) : null),
        h('span', { class: 'item-actions' },
          h('button', { type: 'button', class: 'icon', 'aria-label': `Move set ${i + 1} up`, disabled: i === 0, onclick: () => move(i, -1) }, '↑'),
          h('button', { type: 'button', class: 'icon', 'aria-label': `Move set ${i + 1} down`, disabled: i === items.length - 1, onclick: () => move(i, 1) }, '↓'),
          h('button', { type: 'button', class: 'icon', 'aria-label': `Duplicate set ${i + 1}`, onclick: () => duplicate(i) }, 'Copy'),
          h('button', { type: 'button', class: 'icon danger-text', 'aria-label': `Remove set ${i + 1}`, onclick: () => remove(i) }, '✕')));
      const li = h('li', { class: 'set', 'data-type': it.data._type ?? '',
        onkeydown: (ev) => { if (ev.altKey && (ev.key === 'ArrowUp' || ev.key === 'ArrowDown') && ev.target.closest('.set') === li) { ev.preventDefault(); move(i, ev.key === 'ArrowUp' ? -1 : 1); } },
        ondragover: (ev) => { if (dragFrom >= 0) ev.preventDefault(); },
        ondrop: (ev) => { ev.preventDefault(); if (dragFrom >= 0 && dragFrom !== i) { const [x] = items.splice(dragFrom, 1); items.splice(i, 0, x); dragFrom = -1; draw(); fire(); } } },
      head, body);
      return li;
    }));
    if (focus) {
      const [what, n] = focus.split('-');
      const li = listEl.children[Number(n)];
      const sel = { toggle: '.set-toggle', up: 'button[aria-label*="up"]:not([disabled])', down: 'button[aria-label*="down"]:not([disabled])', open: 'input, select, textarea' }[what] ?? '.set-toggle';
      (li?.querySelector(sel) ?? li?.querySelector('.set-toggle'))?.focus();
    }
  }
  function move(i, d) {
    const j = i + d;
    if (j < 0 || j >= items.length) return;
    sync();
    [items[i], items[j]] = [items[j], items[i]];
    draw(`${d < 0 ? 'up' : 'down'}-${j}`);
    fire();
  }
  function duplicate(i) {
    sync();
    const copy = structuredClone(items[i].data);
    if ('_id' in copy || !inline) copy._id = newID();
    items.splice(i + 1, 0, { data: copy, open: true, form: null });
    draw(`toggle-${i + 1}`);
    fire();
  }
  function remove(i) {
    sync();
    items.splice(i, 1);
    draw(items.length ? `toggle-${Math.min(i, items.length - 1)}` : null);
    fire();
    if (!items.length) addButtons.querySelector('button')?.focus();
  }
  function add(kind) {
    sync();
    const data = inline ? {} : { _type: kind.handle, _id: newID() };
    for (const f of kind.fields ?? []) if (f.default !== undefined) data[f.handle] = structuredClone(f.default);
    items.push({ data, open: true, form: null });
    draw(`open-${items.length - 1}`);
    fire();
  }
  const addButtons = h('div', { class: 'row add-set' },
    kinds.length ? kinds.map((k) => h('button', { type: 'button', class: 'secondary', onclick: () => add(k) }, `Add ${k.display || k.handle || 'row'}`))
      : h('span', { class: 'muted' }, 'This field offers no sets (options.sets names no fieldset).'));
  draw();
  return {
    el: h('fieldset', { class: 'group sets-field', id: a.id, 'aria-describedby': a.describedby || null }, lg, listEl, addButtons),
    group: true, legend: lg,
    get: () => { sync(); return items.length || v !== undefined ? items.map((it) => it.data) : undefined; },
    problems: () => items.flatMap((it, i) => {
      if (!it.form) return [];
      return Object.entries(it.form.validate()).map(([k, m]) => `Set ${i + 1}, ${k}: ${m.join(' ')}`);
    }),
    focus: () => (listEl.querySelector('button') ?? addButtons.querySelector('button'))?.focus(),
  };
}
