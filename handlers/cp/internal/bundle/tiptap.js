// tiptap.js: the entry of static/assets/vendor/tiptap.js (built by `make cp-bundle`): tiptap
// (ProseMirror) set up for rich text. It holds only the glue that needs the library; the
// toolbar, labels and values live in the Control Panel's richtext.js, which loads this on demand.
//
// It runs under the CP's strict CSP: tiptap is told not to inject CSS (injectCSS: false); the
// few rules ProseMirror needs are in cp.css.
import { Editor } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';

// Links may only point at the web, mail, phones, or this site.
const safeHref = /^(https?:\/\/|mailto:|tel:|\/(?!\/)|#)/i;

/**
 * richEditor mounts a tiptap editor in element. o: content (a document or HTML), attrs (of the
 * editable element), onUpdate(), onState() (selection or marks changed: redraw the toolbar).
 */
export function richEditor(element, o) {
  return new Editor({
    element,
    content: o.content ?? null,
    injectCSS: false,
    extensions: [StarterKit.configure({
      underline: false,
      trailingNode: false,
      link: {
        openOnClick: false,
        autolink: true,
        defaultProtocol: 'https',
        HTMLAttributes: { target: null, rel: 'noopener noreferrer nofollow' },
        isAllowedUri: (url, ctx) => safeHref.test(url) && ctx.defaultValidate(url),
      },
    })],
    editorProps: { attributes: o.attrs ?? {} },
    onUpdate: () => o.onUpdate?.(),
    onTransaction: () => o.onState?.(),
  });
}
