package richtext_test

import (
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"

	"cms/content"
	"cms/content/richtext"
)

func decode(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// p is a document of one paragraph holding the given inline nodes (JSON).
func p(inline string) string {
	return `{"type":"doc","content":[{"type":"paragraph","content":[` + inline + `]}]}`
}

func TestRender(t *testing.T) {
	for _, c := range []struct{ name, doc, want string }{
		{"empty document", `{"type":"doc","content":[]}`, ``},
		{"empty paragraph", `{"type":"doc","content":[{"type":"paragraph"}]}`, `<p></p>`},
		{"text is escaped", p(`{"type":"text","text":"a <b> & \"c\" 'd'"}`), `<p>a &lt;b&gt; &amp; &#34;c&#34; &#39;d&#39;</p>`},
		{"marks nest in order", p(`{"type":"text","text":"x","marks":[{"type":"bold"},{"type":"italic"},{"type":"strike"},{"type":"code"}]}`),
			`<p><strong><em><s><code>x</code></s></em></strong></p>`},
		{"unknown mark is left out", p(`{"type":"text","text":"x","marks":[{"type":"blink"},{"type":"bold","attrs":{"onclick":"y"}}]}`), `<p><strong>x</strong></p>`},
		{"safe link", p(`{"type":"text","text":"go","marks":[{"type":"link","attrs":{"href":"https://example.com/?a=1&b=\"2\"","target":"_self","onmouseover":"x"}}]}`),
			`<p><a href="https://example.com/?a=1&amp;b=&#34;2&#34;" rel="noopener noreferrer nofollow">go</a></p>`},
		{"site path and mail links", p(`{"type":"text","text":"a","marks":[{"type":"link","attrs":{"href":"/about#team"}}]},{"type":"text","text":"b","marks":[{"type":"link","attrs":{"href":"mailto:x@example.com"}}]}`),
			`<p><a href="/about#team" rel="noopener noreferrer nofollow">a</a><a href="mailto:x@example.com" rel="noopener noreferrer nofollow">b</a></p>`},
		{"javascript link is text", p(`{"type":"text","text":"x","marks":[{"type":"link","attrs":{"href":" JavaScript:alert(1)"}}]}`), `<p>x</p>`},
		{"tab inside a scheme", p(`{"type":"text","text":"x","marks":[{"type":"link","attrs":{"href":"java\tscript:alert(1)"}}]}`), `<p>x</p>`},
		{"data link", p(`{"type":"text","text":"x","marks":[{"type":"link","attrs":{"href":"data:text/html,<script>"}}]}`), `<p>x</p>`},
		{"scheme-relative link", p(`{"type":"text","text":"x","marks":[{"type":"link","attrs":{"href":"//evil.example/"}}]}`), `<p>x</p>`},
		{"backslash link", p(`{"type":"text","text":"x","marks":[{"type":"link","attrs":{"href":"/\\evil.example/"}}]}`), `<p>x</p>`},
		{"headings clamp their level", `{"type":"doc","content":[{"type":"heading","attrs":{"level":1},"content":[{"type":"text","text":"a"}]},{"type":"heading","attrs":{"level":9},"content":[{"type":"text","text":"b"}]},{"type":"heading","attrs":{"level":"2\" onclick=\"x"},"content":[{"type":"text","text":"c"}]}]}`,
			`<h1>a</h1><h6>b</h6><h2>c</h2>`},
		{"lists", `{"type":"doc","content":[{"type":"bulletList","content":[{"type":"listItem","content":[{"type":"paragraph","content":[{"type":"text","text":"a"}]}]}]},{"type":"orderedList","attrs":{"start":3},"content":[{"type":"listItem","content":[{"type":"paragraph","content":[{"type":"text","text":"b"}]}]}]},{"type":"orderedList","attrs":{"start":1},"content":[]}]}`,
			`<ul><li><p>a</p></li></ul><ol start="3"><li><p>b</p></li></ol><ol></ol>`},
		{"blockquote, rule, break", `{"type":"doc","content":[{"type":"blockquote","content":[{"type":"paragraph","content":[{"type":"text","text":"a"},{"type":"hardBreak"},{"type":"text","text":"b"}]}]},{"type":"horizontalRule"}]}`,
			`<blockquote><p>a<br>b</p></blockquote><hr>`},
		{"code block is text", `{"type":"doc","content":[{"type":"codeBlock","attrs":{"language":"go"},"content":[{"type":"text","text":"if a < b {","marks":[{"type":"bold"}]},{"type":"hardBreak"},{"type":"text","text":"}"}]}]}`,
			"<pre><code class=\"language-go\">if a &lt; b {\n}</code></pre>"},
		{"code block language must be a word", `{"type":"doc","content":[{"type":"codeBlock","attrs":{"language":"x\" onclick=\"y"},"content":[{"type":"text","text":"a"}]}]}`,
			`<pre><code>a</code></pre>`},
		{"image with safe source", `{"type":"doc","content":[{"type":"image","attrs":{"src":"/assets/a.png","alt":"A \"cat\"","title":"t","onerror":"x"}},{"type":"image","attrs":{"src":"javascript:x"}},{"type":"image","attrs":{"src":"mailto:a@b.c"}}]}`,
			`<img src="/assets/a.png" alt="A &#34;cat&#34;" title="t">`},
		{"unknown nodes keep their text", `{"type":"doc","content":[{"type":"script","content":[{"type":"text","text":"alert(1)"}]},{"type":"table","content":[{"type":"tableRow","content":[{"type":"paragraph","content":[{"type":"text","text":"cell"}]}]}]}]}`,
			`alert(1)<p>cell</p>`},
		{"wrong shapes are skipped", `{"type":"doc","content":[1,"x",null,{"type":"paragraph","content":{"type":"text","text":"no list"}},{"type":"text","text":5},{"notype":true}]}`,
			`<p></p>`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := richtext.Render(decode(t, c.doc))
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestForms: a document is read from a plain map, a content.Map (as the store holds it) and a
// JSON string; Markdown and other values are not documents.
func TestForms(t *testing.T) {
	doc := p(`{"type":"text","text":"hi","marks":[{"type":"italic"}]}`)
	var m content.Map
	if err := m.UnmarshalJSON([]byte(doc)); err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{decode(t, doc), &m, doc, "  " + doc + "\n"} {
		if !richtext.IsDocument(v) {
			t.Errorf("%T not read as a document", v)
		}
		if got, err := richtext.Render(v); err != nil || got != `<p><em>hi</em></p>` {
			t.Errorf("%T: %q, %v", v, got, err)
		}
	}
	for _, v := range []any{"**Markdown**", "{not json", `{"no":"type"}`, 3, nil, []any{}, (*content.Map)(nil)} {
		if richtext.IsDocument(v) {
			t.Errorf("%#v read as a document", v)
		}
		if got, err := richtext.Render(v); got != "" || err != nil {
			t.Errorf("%#v rendered as %q, %v", v, got, err)
		}
	}
}

func TestLimits(t *testing.T) {
	deep := strings.Repeat(`{"type":"blockquote","content":[`, richtext.MaxDepth+2) + strings.Repeat(`]}`, richtext.MaxDepth+2)
	if _, err := richtext.Render(decode(t, deep)); !errors.Is(err, richtext.ErrLimit) {
		t.Errorf("a document %d deep: %v, want ErrLimit", richtext.MaxDepth+2, err)
	}
	ok := strings.Repeat(`{"type":"blockquote","content":[`, richtext.MaxDepth-1) + strings.Repeat(`]}`, richtext.MaxDepth-1)
	if _, err := richtext.Render(decode(t, `{"type":"doc","content":[`+ok+`]}`)); err != nil {
		t.Errorf("a document %d deep: %v", richtext.MaxDepth, err)
	}
	wide := `{"type":"doc","content":[` + strings.TrimSuffix(strings.Repeat(`{"type":"hardBreak"},`, richtext.MaxNodes+1), ",") + `]}`
	if _, err := richtext.Render(decode(t, wide)); !errors.Is(err, richtext.ErrLimit) {
		t.Errorf("a document of %d nodes: %v, want ErrLimit", richtext.MaxNodes+2, err)
	}
}

// tagRE finds the tags in rendered HTML.
var tagRE = regexp.MustCompile(`<(/?)([a-z0-9]+)((?:\s+[a-z]+="[^"<>]*")*)>`)
var attrRE = regexp.MustCompile(`\s+([a-z]+)="([^"]*)"`)

var allowedTags = map[string]bool{"p": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"ul": true, "ol": true, "li": true, "blockquote": true, "pre": true, "code": true, "br": true, "hr": true, "img": true,
	"strong": true, "em": true, "s": true, "u": true, "sub": true, "sup": true, "mark": true, "a": true}
var allowedAttrs = map[string]bool{"href": true, "rel": true, "src": true, "alt": true, "title": true, "class": true, "start": true}

// FuzzRender: whatever JSON it is given, the output is made only of allowed tags with allowed
// attributes, links and images never carry a script address, and text never opens a tag.
func FuzzRender(f *testing.F) {
	for _, s := range []string{
		p(`{"type":"text","text":"<script>alert(1)</script>","marks":[{"type":"link","attrs":{"href":"javascript:alert(1)"}}]}`),
		`{"type":"doc","content":[{"type":"heading","attrs":{"level":3},"content":[{"type":"text","text":"h"}]},{"type":"codeBlock","attrs":{"language":"js"},"content":[{"type":"text","text":"</code><script>"}]}]}`,
		`{"type":"doc","content":[{"type":"image","attrs":{"src":"https://x/\"onerror=\"a","alt":"\"><svg onload=x>"}}]}`,
		`{"type":"doc","content":[{"type":"orderedList","attrs":{"start":-7.5},"content":[{"type":"listItem"}]}]}`,
		`"{\"type\":\"doc\"}"`, `[]`, `null`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var v any
		if json.Unmarshal([]byte(in), &v) != nil {
			return
		}
		out, err := richtext.Render(v)
		if err != nil {
			if !errors.Is(err, richtext.ErrLimit) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		rest := tagRE.ReplaceAllStringFunc(out, func(tag string) string {
			m := tagRE.FindStringSubmatch(tag)
			if !allowedTags[m[2]] {
				t.Fatalf("tag %q in %s", m[2], out)
			}
			for _, a := range attrRE.FindAllStringSubmatch(m[3], -1) {
				if !allowedAttrs[a[1]] {
					t.Fatalf("attribute %q in %s", a[1], out)
				}
				if a[1] == "href" || a[1] == "src" {
					low := strings.ToLower(strings.TrimSpace(a[2]))
					if strings.Contains(low, "script:") || strings.HasPrefix(low, "data:") || strings.HasPrefix(low, "//") {
						t.Fatalf("unsafe address %q in %s", a[2], out)
					}
				}
			}
			return ""
		})
		if strings.ContainsAny(rest, "<>") {
			t.Fatalf("text opens a tag: %s", out)
		}
	})
}
