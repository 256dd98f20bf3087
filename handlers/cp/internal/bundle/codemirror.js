// codemirror.js: the entry of static/assets/vendor/codemirror.js (built by `make cp-bundle`):
// CodeMirror 6 set up for Markdown. It holds only the glue that needs the library; the toolbar,
// labels and the preview live in the Control Panel's markdown.js, which loads this on demand.
//
// It runs under the CP's strict CSP: CodeMirror's styles (its base theme and the theme below) go
// into a constructed stylesheet adopted by the document, never a <style> element (the bundler
// patches style-mod for that, see main.go), and syntax colours are classes (classHighlighter)
// styled in cp.css.
import { EditorSelection, EditorState } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { LanguageSupport, syntaxHighlighting } from '@codemirror/language';
import { markdownLanguage } from '@codemirror/lang-markdown';
import { classHighlighter } from '@lezer/highlight';

/**
 * editMarkdown applies one toolbar edit to the selection: {wrap: '**'} wraps it (or a
 * placeholder word, left selected), {prefix: '> '} starts each selected line with the prefix,
 * {link: true} makes it a link with the URL part selected.
 */
export function editMarkdown(view, edit) {
  const { state } = view;
  let tr;
  if (edit.prefix) {
    const starts = new Set();
    for (const r of state.selection.ranges) {
      for (let l = state.doc.lineAt(r.from); ; l = state.doc.line(l.number + 1)) {
        starts.add(l.from);
        if (l.to >= r.to || l.number === state.doc.lines) break;
      }
    }
    tr = state.update({ changes: [...starts].map((from) => ({ from, insert: edit.prefix })), scrollIntoView: true });
  } else {
    tr = state.update(state.changeByRange((r) => {
      const text = state.sliceDoc(r.from, r.to) || (edit.link ? 'link text' : 'text');
      if (edit.link) {
        const insert = `[${text}](https://)`;
        const at = r.from + text.length + 3;
        return { changes: { from: r.from, to: r.to, insert }, range: EditorSelection.range(at, at + 8) };
      }
      const w = edit.wrap;
      return { changes: { from: r.from, to: r.to, insert: `${w}${text}${w}` }, range: EditorSelection.range(r.from + w.length, r.from + w.length + text.length) };
    }), { scrollIntoView: true });
  }
  view.dispatch(tr);
  view.focus();
}

// theme: the look of the CP's inputs. Kept here rather than in cp.css because CodeMirror's own
// rules, adopted after the page's stylesheets, win ties against cp.css.
const theme = EditorView.theme({
  '&': { border: '1px solid #c3cad5', borderRadius: '4px', background: '#fff', maxHeight: '36rem' },
  '&.cm-focused': { outline: '2px solid #2b5fd9', outlineOffset: '2px' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: '.9rem', lineHeight: '1.5', minHeight: '16rem' },
  '.cm-content': { padding: '.5rem .25rem', caretColor: '#1d2330' },
});

/**
 * markdownView mounts a CodeMirror editor for Markdown in parent. o: doc (text), attrs (of
 * the editable element: id, aria-label…), keys ([{key: 'Mod-b', edit}]), onChange().
 */
export function markdownView(parent, o) {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: o.doc ?? '',
      extensions: [
        history(),
        EditorView.lineWrapping,
        theme,
        // The GitHub-flavoured Markdown grammar without markdown()'s nested HTML and code
        // languages, which would triple the bundle.
        new LanguageSupport(markdownLanguage),
        syntaxHighlighting(classHighlighter),
        // Tab is left to the browser, so the editor is no keyboard trap.
        keymap.of([...(o.keys ?? []).map(({ key, edit }) => ({ key, preventDefault: true, run: (v) => { editMarkdown(v, edit); return true; } })), ...defaultKeymap, ...historyKeymap]),
        EditorView.contentAttributes.of(o.attrs ?? {}),
        EditorView.updateListener.of((u) => { if (u.docChanged) o.onChange?.(); }),
      ],
    }),
  });
  return view;
}
