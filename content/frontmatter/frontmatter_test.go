package frontmatter_test

import (
	"errors"
	"strings"
	"testing"

	"cms/content"
	"cms/content/frontmatter"
)

func TestParseKeepsWrittenForm(t *testing.T) {
	t.Parallel()
	src := "---\ntitle: Hello\ncreatedAt: 2026-05-31T20:00:00.000Z\ndate_only: 2026-01-02\nquoted: '2026-05-31T20:00:00.000Z'\ncount: 3\nratio: 2.5\nflag: true\nnothing: null\nversion: 0_0\nlist: [a, 1]\nnested:\n  z: 1\n  a: 2\n---\n\n# Body\n\ntext\n"
	doc, err := frontmatter.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"title":     "Hello",
		"createdAt": "2026-05-31T20:00:00.000Z",
		"date_only": "2026-01-02",
		"quoted":    "2026-05-31T20:00:00.000Z",
		"count":     int64(3),
		"ratio":     2.5,
		"flag":      true,
		"nothing":   nil,
	}
	for k, v := range want {
		if got := doc.Front.Value(k); got != v {
			t.Errorf("%s = %#v, want %#v", k, got, v)
		}
	}
	if got := strings.Join(doc.Front.Keys(), ","); got != "title,createdAt,date_only,quoted,count,ratio,flag,nothing,version,list,nested" {
		t.Errorf("key order = %s", got)
	}
	nested := doc.Front.Value("nested").(*content.Map)
	if got := strings.Join(nested.Keys(), ","); got != "z,a" {
		t.Errorf("nested key order = %s, want z,a", got)
	}
	if doc.Body != "# Body\n\ntext" {
		t.Errorf("body = %q", doc.Body)
	}
}

func TestFormatRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
	}{
		{"timestamps stay plain", "---\ntitle: A\ncreatedAt: 2026-05-31T20:00:00.000Z\n---\n\nbody\n"},
		{"strings that look like other types are quoted", "---\na: \"true\"\nb: \"3\"\nc: \"null\"\nd: \"\"\n---\n"},
		{"multi-line strings", "---\nhtml: |-\n  <p>one</p>\n  <p>two</p>\n---\n\nx\n"},
		{"nested lists of maps keep order", "---\nblocks:\n  - _type: hero\n    title: T\n    _id: b1\n  - _type: text\n---\n"},
		{"unicode", "---\ntitle: \"日本語 — ok\"\n---\n\nüñí\n"},
		{"float stays float", "---\nx: 1.0\ny: 1e3\n---\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d1, err := frontmatter.Parse([]byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			out, err := frontmatter.Format(d1.Front, d1.Body)
			if err != nil {
				t.Fatal(err)
			}
			d2, err := frontmatter.Parse(out)
			if err != nil {
				t.Fatalf("reparse %q: %v", out, err)
			}
			j1, _ := d1.Front.MarshalJSON()
			j2, _ := d2.Front.MarshalJSON()
			if string(j1) != string(j2) || d1.Body != d2.Body {
				t.Errorf("round trip changed the document:\n%s\n%s\nformatted:\n%s", j1, j2, out)
			}
			// Formatting again gives the same bytes (stable output, small diffs).
			out2, _ := frontmatter.Format(d2.Front, d2.Body)
			if string(out) != string(out2) {
				t.Errorf("format is not stable:\n%s\n---\n%s", out, out2)
			}
		})
	}
}

func TestTimestampWrittenUnquoted(t *testing.T) {
	t.Parallel()
	m := content.NewMap(1)
	m.Set("createdAt", "2026-05-31T20:00:00.000Z")
	m.Set("word", "true")
	out, err := frontmatter.MarshalYAML(m)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "createdAt: 2026-05-31T20:00:00.000Z\n") {
		t.Errorf("timestamp was not written as it was read:\n%s", out)
	}
	if !strings.Contains(string(out), `word: "true"`) {
		t.Errorf("a string YAML would read as a boolean must be quoted:\n%s", out)
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		src      string
		wantLine int
		wantMsg  string
	}{
		{"not closed", "---\ntitle: x\n", 1, "not closed"},
		{"not a map", "---\n- a\n- b\n---\n", 2, "expected a mapping"},
		{"bad yaml", "---\ntitle: x\n  bad: [\n---\n", 3, ""},
		{"scalar file", "content of resources/collections/blog.yaml", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := frontmatter.Parse([]byte(tt.src))
			if tt.name == "scalar file" {
				// No front matter: the whole file is body, which is valid for an entry.
				if err != nil {
					t.Fatalf("err = %v, want nil", err)
				}
				_, err = frontmatter.ParseYAMLMap([]byte(tt.src), 1)
				if err == nil || !strings.Contains(err.Error(), "expected a mapping") {
					t.Fatalf("ParseYAMLMap err = %v, want a mapping error", err)
				}
				return
			}
			var fe *frontmatter.Error
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want *frontmatter.Error", err)
			}
			if tt.wantLine != 0 && fe.Line != tt.wantLine {
				t.Errorf("line = %d, want %d (%v)", fe.Line, tt.wantLine, err)
			}
			if !strings.Contains(fe.Msg, tt.wantMsg) {
				t.Errorf("msg = %q, want it to contain %q", fe.Msg, tt.wantMsg)
			}
		})
	}
}

func TestDeepNestingRefused(t *testing.T) {
	t.Parallel()
	src := "---\na: " + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "\n---\n"
	if _, err := frontmatter.Parse([]byte(src)); err == nil {
		t.Error("a document nested 200 deep was accepted")
	}
}

func TestAliasBomb(t *testing.T) {
	t.Parallel()
	// Billion-laughs style aliases must not blow up memory or time.
	src := "---\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n---\n"
	_, _ = frontmatter.Parse([]byte(src)) // must return (error or not) promptly
}

// FuzzParse checks that any input either fails cleanly or survives a format/parse round trip
// unchanged.
func FuzzParse(f *testing.F) {
	f.Add([]byte("---\ntitle: Hello\ncreatedAt: 2026-05-31T20:00:00.000Z\n---\n\nbody\n"))
	f.Add([]byte("---\na: [1, 2.5, true, null, '2026-01-01']\nb: {c: d}\n---\n"))
	f.Add([]byte("no front matter"))
	f.Add([]byte("---\n---\n"))
	f.Add([]byte("---\nx: |\n  multi\n  line\n---\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := frontmatter.Parse(src)
		if err != nil {
			return
		}
		out, err := frontmatter.Format(doc.Front, doc.Body)
		if content.KindOf(err) == content.TooLarge {
			return // aliases can expand a small file past what the writer may write
		}
		if err != nil {
			t.Fatalf("format: %v", err)
		}
		doc2, err := frontmatter.Parse(out)
		if err != nil {
			t.Fatalf("formatted output does not parse: %v\n%q", err, out)
		}
		j1, _ := doc.Front.MarshalJSON()
		j2, _ := doc2.Front.MarshalJSON()
		if string(j1) != string(j2) {
			t.Fatalf("front matter changed:\n%s\n%s", j1, j2)
		}
		if doc.Body != doc2.Body {
			t.Fatalf("body changed: %q -> %q", doc.Body, doc2.Body)
		}
	})
}
