package markdown_test

import (
	"strings"
	"testing"

	"cms/content/markdown"
)

func TestRender(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		allowHTML bool
		src       string
		want      []string
		not       []string
	}{
		{"markdown", false, "# Title\n\nSome *text* and a [link](https://example.com).\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
			[]string{`<h1 id="title">Title</h1>`, "<em>text</em>", `<a href="https://example.com">link</a>`, "<table>"}, nil},
		{"raw HTML block escaped", false, "<div class=\"note\">hi</div>\n", []string{"&lt;div class=&quot;note&quot;&gt;hi&lt;/div&gt;"}, []string{"<div"}},
		{"inline HTML escaped", false, "a <script>alert(1)</script> b", []string{"&lt;script&gt;"}, []string{"<script>"}},
		{"javascript links neutralised", false, "[x](javascript:alert(1))", nil, []string{`href="javascript:`}},
		{"raw HTML allowed on opt-in", true, "<div class=\"note\">hi</div>\n", []string{`<div class="note">hi</div>`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := markdown.New(tt.allowHTML).Render(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("output lacks %q:\n%s", w, got)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("output contains %q:\n%s", n, got)
				}
			}
		})
	}
}
