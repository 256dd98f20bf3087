// richtext.js: the rich-text editor of `tiptap` fields: tiptap (vendor/tiptap.js, loaded on the
// first screen that needs it) with a toolbar, storing the ProseMirror JSON document
// ({type: "doc", content: [...]}) that content/validate checks and content/richtext renders.
// A value stored as a string (Markdown, from before) is shown formatted and is saved back as a
// document only once edited, so opening and saving a form never rewrites it.
import { h, show } from './dom.js';
import { roving } from './markdown.js';

let tt = null;
const loadTiptap = () => (tt ??= import('./vendor/tiptap.js'));

/**
 * visibleText returns the text of a rich-text value as the server measures it: the `text`
 * nodes of a document (also one stored as a JSON string); any other string as it is.
 */
export function visibleText(v) {
  if (typeof v === 'string') {
    const s = v.trim();
    if (!s.startsWith('{')) return v;
    try {
      const d = JSON.parse(s);
      return d && typeof d === 'object' && 'type' in d ? visibleText(d) : v;
    } catch { return v; }
  }
  let out = '';
  const stack = [v];
  while (stack.length) {
    const n = stack.pop();
    if (!n || typeof n !== 'object' || Array.isArray(n)) continue;
    if (n.type === 'text' && typeof n.text === 'string') out += n.text;
    if (Array.isArray(n.content)) for (let i = n.content.length - 1; i >= 0; i--) stack.push(n.content[i]);
  }
  return out;
}

/** paragraphs turns plain text into a document: blank lines part paragraphs, a newline breaks. */
function paragraphs(text) {
  const content = String(text).split(/\n\s*\n/).filter((p) => p.trim() !== '').map((p) => ({
    type: 'paragraph',
    content: p.split('\n').flatMap((line, i) => [...(i ? [{ type: 'hardBreak' }] : []), ...(line ? [{ type: 'text', text: line }] : [])]),
  }));
  return { type: 'doc', content: content.length ? content : [{ type: 'paragraph' }] };
}

/** startContent returns what the editor starts from: a document, or HTML rendered from Markdown. */
async function startContent(v, preview) {
  if (v && typeof v === 'object') return v;
  if (typeof v !== 'string' || v.trim() === '') return null;
  const s = v.trim();
  if (s.startsWith('{')) {
    try { const d = JSON.parse(s); if (d && typeof d === 'object' && d.type === 'doc') return d; } catch { /* Markdown after all */ }
  }
  if (preview) {
    try { return await preview(v); } catch { /* plain paragraphs below */ }
  }
  return paragraphs(v);
}

// tools: label, glyph, shortcut shown, the command, and what makes the button pressed.
const tools = [
  ['Bold', 'B', 'Ctrl+B', (c) => c.toggleBold(), ['bold']],
  ['Italic', 'I', 'Ctrl+I', (c) => c.toggleItalic(), ['italic']],
  ['Strikethrough', 'S', 'Ctrl+Shift+S', (c) => c.toggleStrike(), ['strike']],
  ['Heading 2', 'H2', 'Ctrl+Alt+2', (c) => c.toggleHeading({ level: 2 }), ['heading', { level: 2 }]],
  ['Heading 3', 'H3', 'Ctrl+Alt+3', (c) => c.toggleHeading({ level: 3 }), ['heading', { level: 3 }]],
  ['Bulleted list', '•', 'Ctrl+Shift+8', (c) => c.toggleBulletList(), ['bulletList']],
  ['Numbered list', '1.', 'Ctrl+Shift+7', (c) => c.toggleOrderedList(), ['orderedList']],
  ['Quote', '❝', 'Ctrl+Shift+B', (c) => c.toggleBlockquote(), ['blockquote']],
  ['Code', '</>', 'Ctrl+E', (c) => c.toggleCode(), ['code']],
  ['Code block', '{ }', 'Ctrl+Alt+C', (c) => c.toggleCodeBlock(), ['codeBlock']],
  ['Link', 'Link', 'Ctrl+K', null, ['link']],
  ['Undo', '↶', 'Ctrl+Z', (c) => c.undo(), null],
  ['Redo', '↷', 'Ctrl+Shift+Z', (c) => c.redo(), null],
];

/**
 * richTextEditor builds the editor. o: id, describedby, value (a document, a string, or
 * undefined), label, preview (async Markdown → HTML, or null). Returns {el, get(), focus(),
 * ready}. Every edit fires a bubbling input event, so the form sees it.
 */
export function richTextEditor(o) {
  let editor = null;
  let touched = false; // edited since loading: only then is the value a new document
  const slot = h('div', { id: o.id, class: 'rt-loading', role: 'status' }, 'Loading the editor…');
  const host = h('div', { class: 'rt-host' }, slot);
  const buttons = [];
  const bar = h('div', { role: 'toolbar', class: 'md-toolbar rt-toolbar', 'aria-label': `Formatting for ${o.label}`, 'aria-controls': o.id },
    tools.map(([name, glyph, keys, run, active], i) => {
      const b = h('button', { type: 'button', class: 'icon', tabindex: i === 0 ? '0' : '-1', title: `${name} (${keys})`, 'aria-label': name, disabled: true,
        'aria-pressed': active ? 'false' : null, onclick: () => (run ? editor && run(editor.chain().focus()).run() : openLink()),
        // A click keeps the focus (and the selection) in the text; the keyboard still reaches the buttons.
        onmousedown: (ev) => ev.preventDefault() }, glyph);
      buttons.push([b, name, active]);
      return b;
    }));
  roving(bar);

  // The link row: the address of the link at the selection, applied, or removed.
  const linkId = `${o.id}-link`;
  const linkInput = h('input', { type: 'url', id: linkId, placeholder: 'https://', spellcheck: 'false' });
  const linkNote = h('small', { class: 'error', role: 'alert' });
  const linkRow = h('div', { class: 'rt-link row', hidden: true },
    h('label', { for: linkId }, 'Link address'), linkInput,
    h('button', { type: 'button', class: 'secondary', onclick: () => setLink() }, 'Apply'),
    h('button', { type: 'button', class: 'secondary', onclick: () => { editor?.chain().focus().extendMarkRange('link').unsetLink().run(); closeLink(); } }, 'Remove link'),
    h('button', { type: 'button', class: 'secondary', onclick: () => { closeLink(); editor?.commands.focus(); } }, 'Cancel'),
    linkNote);
  function openLink() {
    if (!editor) return;
    linkInput.value = editor.getAttributes('link').href ?? '';
    show(linkNote);
    linkRow.hidden = false;
    linkInput.focus();
  }
  function closeLink() { linkRow.hidden = true; }
  // The editor takes the focus back only once the link is set: its focus command lands on the
  // next animation frame, and taken on a refused address it would pull the caret out of the
  // address field after the message put it there.
  function setLink() {
    const href = linkInput.value.trim();
    const chain = editor.chain().extendMarkRange('link');
    if (href === '') { chain.unsetLink().run(); closeLink(); editor.commands.focus(); return; }
    if (!chain.setLink({ href }).run()) { show(linkNote, 'Links may only go to http(s), mailto: or tel: addresses, or a path of this site.'); linkInput.focus(); return; }
    closeLink();
    editor.commands.focus();
  }
  linkInput.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') { ev.preventDefault(); setLink(); }
    if (ev.key === 'Escape') { ev.preventDefault(); closeLink(); editor?.commands.focus(); }
  });

  // Undo and Redo say when there is nothing to do with aria-disabled rather than disabled, so
  // they keep their place in the toolbar's arrow-key order (and the one Tab stop never vanishes).
  const redraw = () => {
    for (const [b, name, active] of buttons) {
      b.disabled = !editor;
      if (editor && (name === 'Undo' || name === 'Redo')) b.setAttribute('aria-disabled', String(!(name === 'Undo' ? editor.can().undo() : editor.can().redo())));
      if (active && editor) b.setAttribute('aria-pressed', editor.isActive(...active) ? 'true' : 'false');
    }
  };
  const el = h('div', { class: 'rt' }, bar, linkRow, host);

  const ready = Promise.all([loadTiptap(), startContent(o.value, o.preview)]).then(([m, content]) => {
    const mount = h('div', { class: 'rt-editor' });
    slot.replaceWith(mount);
    editor = m.richEditor(mount, {
      content,
      attrs: { id: o.id, role: 'textbox', 'aria-multiline': 'true', 'aria-label': o.label, ...(o.describedby ? { 'aria-describedby': o.describedby } : {}), class: 'rt-input' },
      onUpdate: () => { touched = true; el.dispatchEvent(new Event('input', { bubbles: true })); },
      onState: redraw,
    });
    editor.view.dom.addEventListener('keydown', (ev) => {
      if ((ev.ctrlKey || ev.metaKey) && !ev.altKey && ev.key.toLowerCase() === 'k') { ev.preventDefault(); openLink(); }
    });
    el.dataset.editor = 'tiptap';
    redraw();
  }, (err) => {
    show(slot, `The rich-text editor did not load (${err.message}); the stored value is kept as it is.`);
    slot.classList.add('error');
  });

  return {
    el,
    ready,
    focus: () => (editor ? editor.commands.focus() : slot.focus?.()),
    get: () => {
      if (!editor || !touched) return o.value;
      if (editor.isEmpty && o.value === undefined) return undefined;
      return editor.getJSON();
    },
  };
}
