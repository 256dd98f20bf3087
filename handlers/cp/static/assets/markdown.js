// markdown.js: the Markdown editor: CodeMirror 6 (vendor/codemirror.js) with a toolbar and
// keyboard shortcuts, and a live preview that the server renders exactly as the site does. The
// preview's HTML is copied into the page through an allow-list of elements and attributes, never
// as markup, so even a site that allows raw HTML in Markdown cannot run script or style in the
// Control Panel.
import { h, safeURL, show } from './dom.js';

const allowed = new Set(['a', 'abbr', 'b', 'blockquote', 'br', 'caption', 'code', 'dd', 'del', 'details', 'div', 'dl', 'dt', 'em', 'figcaption', 'figure',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img', 'input', 'ins', 'kbd', 'li', 'mark', 'ol', 'p', 'pre', 's', 'small', 'span', 'strong', 'sub', 'summary', 'sup',
  'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'u', 'ul']);
const attrs = new Set(['href', 'src', 'alt', 'title', 'id', 'colspan', 'rowspan', 'align', 'start', 'type', 'checked', 'disabled']);

/** copyHTML returns the allowed part of an HTML string as nodes of this document. */
export function copyHTML(html) {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const copy = (n) => {
    if (n.nodeType === Node.TEXT_NODE) return document.createTextNode(n.data);
    if (n.nodeType !== Node.ELEMENT_NODE) return null;
    const tag = n.tagName.toLowerCase();
    const kids = [...n.childNodes].map(copy).filter(Boolean);
    if (!allowed.has(tag) || (tag === 'input' && n.getAttribute('type') !== 'checkbox')) return kids.length ? h('span', {}, kids) : null;
    const out = {};
    for (const a of n.attributes) if (attrs.has(a.name)) out[a.name] = a.name === 'href' || a.name === 'src' ? safeURL(a.value) : a.value;
    if (tag === 'input') out.disabled = true;
    if (tag === 'a') { out.target = '_blank'; out.rel = 'noopener noreferrer'; }
    return h(tag, out, kids);
  };
  return [...doc.body.childNodes].map(copy).filter(Boolean);
}

/** tools: label, shortcut key (with Ctrl/Cmd), and the edit: wrap the selection or prefix lines.
 * apply makes the edit in the textarea; CodeMirror's editMarkdown makes the same edits. */
const tools = [
  ['Bold', 'b', { wrap: '**' }],
  ['Italic', 'i', { wrap: '_' }],
  ['Heading', '', { prefix: '## ' }],
  ['Link', 'k', { link: true }],
  ['Bulleted list', '', { prefix: '- ' }],
  ['Numbered list', '', { prefix: '1. ' }],
  ['Quote', '', { prefix: '> ' }],
  ['Code', 'e', { wrap: '`' }],
];
const glyph = { Bold: 'B', Italic: 'I', Heading: 'H', Link: 'Link', 'Bulleted list': '•', 'Numbered list': '1.', Quote: '❝', Code: '</>' };

function apply(t, tool) {
  const { selectionStart: a, selectionEnd: b, value } = t;
  const sel = value.slice(a, b);
  if (tool.wrap) {
    const w = tool.wrap;
    const text = sel || 'text';
    t.setRangeText(`${w}${text}${w}`, a, b, 'select');
    t.setSelectionRange(a + w.length, a + w.length + text.length);
  } else if (tool.link) {
    const text = sel || 'link text';
    t.setRangeText(`[${text}](https://)`, a, b, 'select');
    const at = a + text.length + 3;
    t.setSelectionRange(at, at + 8);
  } else if (tool.prefix) {
    const start = value.lastIndexOf('\n', a - 1) + 1;
    const lines = value.slice(start, b).split('\n').map((l) => tool.prefix + l).join('\n');
    t.setRangeText(lines, start, b, 'end');
  }
  t.focus();
  t.dispatchEvent(new Event('input', { bubbles: true }));
}

/** roving gives a toolbar one Tab stop; the arrow keys move along its buttons, round the ends. */
export function roving(bar) {
  bar.addEventListener('keydown', (ev) => {
    const bs = [...bar.querySelectorAll('button')];
    const i = bs.indexOf(document.activeElement);
    const d = { ArrowRight: 1, ArrowLeft: -1 }[ev.key];
    if (i < 0 || !d) return;
    ev.preventDefault();
    bs[i].tabIndex = -1;
    const n = bs[(i + d + bs.length) % bs.length];
    n.tabIndex = 0;
    n.focus();
  });
}

// The CodeMirror bundle (vendor/codemirror.js, `make cp-bundle`), loaded once, on the first
// screen that shows a Markdown editor, so the other screens stay small.
let cm = null;
const loadCodeMirror = () => (cm ??= import('./vendor/codemirror.js'));

/**
 * markdownEditor builds the editor: CodeMirror 6 once its bundle has loaded, a textarea until
 * then (and for good if it cannot load). o: id, aria-describedby, value, label, preview (async
 * markdown → html, or null when the server offers none). Returns {el, value(), focus(), ready}.
 * Every change fires a bubbling input event, so forms see edits made by the toolbar too.
 */
export function markdownEditor(o) {
  const t = h('textarea', { id: o.id, 'aria-describedby': o['aria-describedby'], rows: 12, class: 'md-input', value: o.value ?? '' });
  let view = null; // the CodeMirror view, once mounted
  const host = h('div', { class: 'md-host' }, t);
  const changed = () => { host.dispatchEvent(new Event('input', { bubbles: true })); };
  const edit = (tool) => (view ? cm.then((m) => m.editMarkdown(view, tool)) : apply(t, tool));
  const bar = h('div', { role: 'toolbar', class: 'md-toolbar', 'aria-label': `Formatting for ${o.label}`, 'aria-controls': o.id },
    tools.map(([name, key, tool], i) => h('button', { type: 'button', class: 'icon', tabindex: i === 0 ? '0' : '-1', title: key ? `${name} (Ctrl+${key.toUpperCase()})` : name, 'aria-label': name,
      onclick: () => edit(tool), onmousedown: (ev) => ev.preventDefault() /* the focus stays in the text */ }, glyph[name])));
  roving(bar);
  t.addEventListener('keydown', (ev) => {
    if (!(ev.ctrlKey || ev.metaKey) || ev.altKey) return;
    const hit = tools.find(([, key]) => key && key === ev.key.toLowerCase());
    if (!hit) return;
    ev.preventDefault();
    apply(t, hit[2]);
  });
  const out = h('div', { class: 'md-preview', 'aria-live': 'polite', 'aria-label': `Preview of ${o.label}`, role: 'region' });
  const status = h('small', { class: 'muted' });
  const value = () => (view ? view.state.doc.toString() : t.value);
  let timer = 0;
  let asked = 0;
  const render = async () => {
    if (!o.preview) return;
    const n = ++asked;
    try {
      const html = await o.preview(value());
      if (n === asked) { show(out, copyHTML(html)); show(status); out.dataset.rendered = String(n); }
    } catch (err) {
      if (n === asked) show(status, `Preview unavailable: ${err.message}`);
    }
  };
  const schedule = () => { clearTimeout(timer); timer = setTimeout(render, 250); };
  t.addEventListener('input', schedule);
  render();
  const el = h('div', { class: 'md' }, bar, h('div', { class: o.preview ? 'md-panes' : '' }, host, o.preview ? h('div', {}, h('div', { class: 'md-preview-label', 'aria-hidden': 'true' }, 'Preview'), out, status) : null));
  // The textarea gives way to CodeMirror, taking along what was typed meanwhile and the focus.
  const ready = loadCodeMirror().then((m) => {
    const focused = document.activeElement === t;
    t.remove();
    view = m.markdownView(host, {
      doc: t.value,
      // tabindex: the editable area is in the tab order already (contenteditable); saying so
      // lets checkers see that the scrolling editor is reachable by keyboard.
      attrs: { id: o.id, tabindex: '0', 'aria-label': o.label, 'aria-multiline': 'true', ...(o['aria-describedby'] ? { 'aria-describedby': o['aria-describedby'] } : {}) },
      keys: tools.filter(([, key]) => key).map(([, key, tool]) => ({ key: `Mod-${key}`, edit: tool })),
      onChange: () => { schedule(); changed(); },
    });
    el.dataset.editor = 'codemirror';
    if (focused) view.focus();
  }, (err) => { el.dataset.editor = 'textarea'; console.warn('Markdown editor: CodeMirror did not load, a plain text area stays', err); });
  return { el, value, focus: () => (view ? view.focus() : t.focus()), ready };
}
