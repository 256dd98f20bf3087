//go:build !race

package cpbrowser

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// editorsSite has a collection with a Markdown field and a required rich-text field, and an
// entry whose rich text was stored as Markdown (a string) before the editor existed.
const editorsSite = `
-- resources/collections/notes.yaml --
title: Notes
blueprint: notes
route: /notes/{slug}
-- resources/blueprints/collections/notes.yaml --
tabs:
  main:
    display: Main
    fields:
      - handle: title
        field: {type: text, display: Title, required: true}
      - handle: summary
        field: {type: markdown, display: Summary}
      - handle: story
        field: {type: tiptap, display: Story, validate: [required, 'max:40']}
-- content/collections/notes/legacy.md --
---
title: Legacy
slug: legacy
status: draft
story: Old **bold** words
---
`

// TestEditors types into the Markdown editor (CodeMirror) with the toolbar and a shortcut and
// sees the server's preview; types rich text with bold and a list into the tiptap editor, sees
// the required rule before saving, saves, reloads and finds it, and checks the file holds the
// document; opens an entry whose rich text is a Markdown string and finds it formatted, kept as
// a string until edited; makes a link by keyboard; sees the max rule. The first screen loads no
// editor, and the strict CSP holds throughout: no violation, no console error.
func TestEditors(t *testing.T) {
	s := startSite(t, editorsSite)
	b := newBrowser(t)
	b.expect("/api/git/status") // git sync is off: the header's indicator gets a 409 once
	// CSP violations are collected from the first script on, before the editors load.
	b.run(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `window.cspViolations = []; document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));`,
		})
		return err
	}))
	b.signIn(s)
	// The first screen fetches no editor: the bundles load only where a field needs them.
	b.waitJS(`document.querySelector('main .dash')`)
	if eval[bool](b, `performance.getEntriesByType('resource').some((e) => e.name.includes('/vendor/'))`) {
		t.Error("the dashboard loaded an editor bundle")
	}

	b.run(chromedp.Navigate(s.url + "/cp/entries/notes/_new"))
	b.waitJS(`document.querySelector('[data-field="summary"] .md[data-editor="codemirror"]') && document.querySelector('[data-field="story"] .rt[data-editor="tiptap"]')`)
	b.typeIn(`#f-title`, "Editors at work")
	// For the record, not a bound: how long the first load of each bundle took on this machine.
	t.Log(eval[string](b, `performance.getEntriesByType('resource').filter((e) => e.name.includes('/vendor/'))
		.map((e) => e.name.replace(/.*\//, '') + ' ' + Math.round(e.duration) + ' ms, ' + e.encodedBodySize + ' bytes').join('; ')`))

	// Markdown: text, the Bold button (a placeholder word, selected, typed over), Ctrl+I.
	md := f("summary", ".cm-content")
	b.typeIn(md, "Hello ")
	b.click(f("summary", `button[aria-label="Bold"]`))
	b.typeIn(md, "world")
	b.run(chromedp.KeyEvent(kb.End), chromedp.KeyEvent(" "), chromedp.KeyEvent("i", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	b.typeIn(md, "sunny")
	b.waitJS(`document.querySelector('[data-field="summary"] .md-preview strong')?.textContent === 'world' && document.querySelector('[data-field="summary"] .md-preview em')?.textContent === 'sunny'`)
	if got := strings.ReplaceAll(b.text(md), "\u00a0", " "); got != "Hello **world** _sunny_" {
		t.Errorf("Markdown editor shows %q", got)
	}

	// Rich text is required: saving without it shows the message at the field, nothing sent.
	b.click(`form.editor button[type="submit"]`)
	b.waitText(f("story", ".field-error"), "This field is required")
	if !strings.HasSuffix(eval[string](b, `location.pathname`), "/_new") {
		t.Fatal("an entry without its required rich text was saved")
	}
	// The focus goes to the field in error; the editor takes it on the next animation frame, so
	// wait for it there before moving it on (a Focus sent sooner was taken back by the editor).
	b.waitJS(`!!document.activeElement?.closest('[data-field="story"] .rt-input')`)

	// The toolbar is one Tab stop whose arrow keys go round every button, Undo and Redo too
	// while they have nothing to do.
	b.run(chromedp.Focus(chromedp.CSS(f("story", `button[aria-label="Bold"]`))))
	for range 12 {
		b.run(chromedp.KeyEvent(kb.ArrowRight))
	}
	if got := eval[string](b, `document.activeElement.getAttribute('aria-label') + ' ' + document.activeElement.getAttribute('aria-disabled') + ' ' + document.activeElement.tabIndex`); got != "Redo true 0" {
		t.Errorf("12 arrows right from Bold reach %q, want Redo (aria-disabled, the Tab stop)", got)
	}
	b.run(chromedp.KeyEvent(kb.ArrowRight))
	if got := eval[string](b, `document.activeElement.getAttribute('aria-label')`); got != "Bold" {
		t.Errorf("the arrow right from Redo reaches %q, want Bold", got)
	}

	// Rich text: a word, Bold on (the button says so), a bold word, Bold off, a bulleted list.
	rt := f("story", ".rt-input")
	bold := f("story", `button[aria-label="Bold"]`)
	b.typeIn(rt, "Plain ")
	b.click(bold)
	b.waitJS(`document.querySelector('[data-field="story"] button[aria-label="Bold"]').getAttribute('aria-pressed') === 'true'`)
	b.typeIn(rt, "strong")
	b.click(bold)
	b.waitJS(`document.querySelector('[data-field="story"] button[aria-label="Bold"]').getAttribute('aria-pressed') === 'false'`)
	// The toolbar leaves the focus in the text, so typing goes on where it was.
	b.waitJS(`document.activeElement?.matches('[data-field="story"] .rt-input')`)
	b.enter()
	b.click(f("story", `button[aria-label="Bulleted list"]`))
	b.typeIn(rt, "first")
	b.enter()
	b.typeIn(rt, "second")
	b.waitJS(`document.querySelectorAll('[data-field="story"] .rt-input li').length === 2`)
	if !eval[bool](b, `document.querySelector('[data-field="story"] button[aria-label="Bulleted list"]').getAttribute('aria-pressed') === 'true'`) {
		t.Error("the Bulleted list button is not pressed inside the list")
	}
	b.shot("editors-filled")

	b.click(`form.editor button[type="submit"]`)
	b.waitJS(`location.pathname.endsWith('/entries/notes/editors-at-work')`)
	b.run(chromedp.Reload())
	b.waitJS(`document.querySelector('[data-field="story"] .rt[data-editor="tiptap"]') && document.querySelector('[data-field="summary"] .md[data-editor="codemirror"]')`)
	if got := strings.ReplaceAll(b.text(md), "\u00a0", " "); got != "Hello **world** _sunny_" {
		t.Errorf("after reload, the Markdown editor shows %q", got)
	}
	if got := eval[[]string](b, `[...document.querySelectorAll('[data-field="story"] .rt-input strong, [data-field="story"] .rt-input li')].map((e) => e.tagName + ':' + e.textContent)`); !reflect.DeepEqual(got, []string{"STRONG:strong", "LI:first", "LI:second"}) {
		t.Errorf("after reload, the rich text shows %q", got)
	}
	b.shot("editors-saved")

	data := readEntry(t, s, "notes", "editors-at-work")
	if data["summary"] != "Hello **world** _sunny_" {
		t.Errorf("file: summary = %#v", data["summary"])
	}
	item := func(s string) map[string]any {
		return map[string]any{"type": "listItem", "content": []any{map[string]any{"type": "paragraph", "content": []any{map[string]any{"type": "text", "text": s}}}}}
	}
	want := map[string]any{"type": "doc", "content": []any{
		map[string]any{"type": "paragraph", "content": []any{
			map[string]any{"type": "text", "text": "Plain "},
			map[string]any{"type": "text", "text": "strong", "marks": []any{map[string]any{"type": "bold"}}},
		}},
		map[string]any{"type": "bulletList", "content": []any{item("first"), item("second")}},
	}}
	if got := norm(data["story"]); !reflect.DeepEqual(stripAttrs(got), norm(want)) {
		t.Errorf("file: story = %#v\nwant the document %#v", got, want)
	}

	// A rich text stored as Markdown shows formatted, and stays a string when saved unedited.
	b.run(chromedp.Navigate(s.url + "/cp/entries/notes/legacy"))
	b.waitJS(`document.querySelector('[data-field="story"] .rt-input strong')?.textContent === 'bold'`)
	b.typeIn(`#f-title`, "!")
	b.click(`form.editor button[type="submit"]`)
	b.waitText(`form.editor > .notice`, "Saved at")
	if got := readEntry(t, s, "notes", "legacy")["story"]; got != "Old **bold** words" {
		t.Errorf("an unedited Markdown rich text was rewritten to %#v", got)
	}
	// Edited, it becomes a document.
	b.run(chromedp.Click(chromedp.CSS(rt)), chromedp.KeyEvent(kb.End))
	b.typeIn(rt, " more")
	b.click(`form.editor button[type="submit"]`)
	b.waitJS(`document.querySelector('form.editor > .notice')?.textContent.includes('Saved at') && !document.body.dataset.unsaved`)
	doc, _ := readEntry(t, s, "notes", "legacy")["story"].(map[string]any)
	raw, _ := json.Marshal(doc)
	if doc["type"] != "doc" || !strings.Contains(string(raw), `"bold"`) || !strings.Contains(string(raw), "words more") {
		t.Errorf("an edited Markdown rich text was saved as %#v, want a document keeping the bold word", doc)
	}

	// A link by keyboard: the bold word selected (as a mouse would; the Bold button shows that
	// the editor has it), Ctrl+K, an address; a script address is refused.
	b.waitJS(`document.querySelector('[data-field="story"] .rt[data-editor="tiptap"]')`) // the form redrawn after saving
	eval[bool](b, `(() => { const ed = document.querySelector('[data-field="story"] .rt-input'); ed.focus();
		const t = ed.querySelector('strong').firstChild; const r = document.createRange(); r.setStart(t, 0); r.setEnd(t, t.length);
		getSelection().removeAllRanges(); getSelection().addRange(r); return true; })()`)
	b.waitJS(`document.querySelector('[data-field="story"] button[aria-label="Bold"]').getAttribute('aria-pressed') === 'true'`)
	b.run(chromedp.KeyEvent("k", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	b.waitJS(`document.activeElement?.matches('[data-field="story"] .rt-link input')`)
	b.run(chromedp.SendKeys(chromedp.CSS(f("story", ".rt-link input")), "javascript:alert(1)"))
	b.enter()
	b.waitText(f("story", ".rt-link .error"), "Links may only go to")
	b.setValue(f("story", ".rt-link input"), "https://example.com/bold")
	b.enter()
	b.waitJS(`document.querySelector('[data-field="story"] .rt-input a[href="https://example.com/bold"]')?.textContent === 'bold' && document.querySelector('[data-field="story"] .rt-link').hidden`)
	if !eval[bool](b, `document.querySelector('[data-field="story"] button[aria-label="Link"]').getAttribute('aria-pressed') === 'true'`) {
		t.Error("the Link button is not pressed on a link")
	}
	if eval[bool](b, `!!document.querySelector('[data-field="story"] .rt-input a[href^="javascript"]')`) {
		t.Error("a javascript: link was made")
	}
	b.shot("editors-link")
	b.click(`form.editor button[type="submit"]`)
	b.waitJS(`!document.body.dataset.unsaved`) // set again only once the server has stored it
	raw, _ = json.Marshal(readEntry(t, s, "notes", "legacy")["story"])
	if !strings.Contains(string(raw), `"href":"https://example.com/bold"`) {
		t.Errorf("the link is not in the stored document: %s", raw)
	}

	// max:40 counts the visible text only, as the server does: 19 characters and 36 more are
	// too many, said at the field before anything is sent.
	b.waitJS(`document.querySelector('[data-field="story"] .rt[data-editor="tiptap"]')`)
	b.run(chromedp.Focus(chromedp.CSS(rt)), chromedp.KeyEvent(kb.End))
	b.typeIn(rt, " and many more words to go well over")
	b.click(`form.editor button[type="submit"]`)
	b.waitText(f("story", ".field-error"), "Must be at most 40 characters")
	if raw2, _ := json.Marshal(readEntry(t, s, "notes", "legacy")["story"]); strings.Contains(string(raw2), "well over") {
		t.Errorf("rich text over its max was saved: %s", raw2)
	}
	b.shot("editors-max")

	if v := eval[[]string](b, `window.cspViolations`); len(v) > 0 {
		t.Errorf("Content-Security-Policy violations: %q", v)
	}
	b.checkConsole()
}

// enter presses Enter once in the focused element. chromedp's "\r" is a key press plus a separate
// character event, and an editor that handles the key (a new list item) still gets the
// character (a second paragraph); a keyDown that carries its text is one press, as a person's.
func (b *browser) enter() {
	b.t.Helper()
	b.run(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeKeyDown, input.DispatchKeyEventTypeKeyUp} {
			p := input.DispatchKeyEventParams{Type: typ, Key: "Enter", Code: "Enter", WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13}
			if typ == input.DispatchKeyEventTypeKeyDown {
				p.Text = "\r"
			}
			if _, err := cdp.Call(ctx, tg, input.DispatchKeyEvent, p); err != nil {
				return err
			}
		}
		return nil
	}))
}

// stripAttrs drops empty attrs maps and null attrs that tiptap writes (textAlign-free nodes have
// none today, but a paragraph may carry {} in another version), so the comparison is about the
// structure a reader sees.
func stripAttrs(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if a, ok := e.(map[string]any); k == "attrs" && (e == nil || ok && len(a) == 0) {
				continue
			}
			out[k] = stripAttrs(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = stripAttrs(e)
		}
		return out
	}
	return v
}
