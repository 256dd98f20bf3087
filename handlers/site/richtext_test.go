package site_test

import "testing"

// A tiptap field renders in templates: a document by allow-list (richtext, and markdown too, for
// templates written when the field held Markdown), a JSON string as the document it holds, a
// Markdown string as Markdown; script, handlers and script links never become markup.
func TestRichTextFunc(t *testing.T) {
	t.Parallel()
	f := newSite(t, testSite+`
-- resources/views/entry.html --
R[{{richtext .Entry.Data.story}}] M[{{markdown .Entry.Data.story}}] N[{{richtext .Entry.Data.missing}}]
-- content/collections/pages/doc.md --
---
title: Doc
status: published
story:
  type: doc
  content:
    - type: heading
      attrs: {level: 2}
      content: [{type: text, text: Hello}]
    - type: paragraph
      content:
        - {type: text, text: "bold", marks: [{type: bold}]}
        - {type: text, text: " <script>alert(1)</script>"}
        - {type: text, text: "link", marks: [{type: link, attrs: {href: "javascript:alert(1)", onclick: "x"}}]}
        - {type: text, text: "safe", marks: [{type: link, attrs: {href: "https://example.com/"}}]}
    - type: bulletList
      content:
        - {type: listItem, content: [{type: paragraph, content: [{type: text, text: one}]}]}
---
-- content/collections/pages/json.md --
---
title: JSON
status: published
story: '{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"as json","marks":[{"type":"italic"}]}]}]}'
---
-- content/collections/pages/md.md --
---
title: Markdown
status: published
story: "Old **bold** words"
---
`, nil)
	doc := `<h2>Hello</h2><p><strong>bold</strong> &lt;script&gt;alert(1)&lt;/script&gt;link<a href="https://example.com/" rel="noopener noreferrer nofollow">safe</a></p><ul><li><p>one</p></li></ul>`
	w := f.get(t, "/doc")
	if w.Code != 200 {
		t.Fatalf("/doc: %d %s", w.Code, f.log.String())
	}
	wantContains(t, "/doc", w.Body.String(), "R["+doc+"]", "M["+doc+"]", "N[]")
	wantNotContains(t, "/doc", w.Body.String(), "<script>", "javascript:", "onclick")
	wantContains(t, "/json", f.get(t, "/json").Body.String(), "R[<p><em>as json</em></p>]")
	wantContains(t, "/md", f.get(t, "/md").Body.String(), "R[<p>Old <strong>bold</strong> words</p>\n]", "M[<p>Old <strong>bold</strong> words</p>\n]")
}
