package search_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"cms/content/search"
)

func TestFold(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Éclair": "eclair", "ECLAIR": "eclair", "straße": "strasse", "ΣΊΣΥΦΟΣ": "σισυφοσ",
		"ﬁle": "file", "Ｇｏ": "go", "naïve": "naive", "Crème": "creme", "Ångström": "angstrom",
	} {
		if got := search.Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
	var toks []string
	search.Tokens("Hello, wörld! C3PO's co-op — 東京", func(tok string, start, end int) { toks = append(toks, tok) })
	if got := strings.Join(toks, "|"); got != "hello|world|c3po|s|co|op|東京" {
		t.Errorf("Tokens = %s", got)
	}
}

// corpus is a small site: the relevance table below names what a reader would expect on top.
var corpus = []struct {
	key, title, body string
	public           bool
}{
	{"go-intro", "Getting started with Go", "Go is a programming language. This guide installs the toolchain and writes a first program.", true},
	{"go-modules", "Modules", "How Go modules pin dependencies. A module is a tree of Go packages with a go.mod file.", true},
	{"coffee", "Brewing coffee", "Grind the beans, heat the water to 94 degrees, and pour slowly. Coffee needs patience.", true},
	{"cafe", "Le café du coin", "Un café crème et un croissant, s'il vous plaît.", true},
	{"deploy", "Deploying to Lambda", "Deploy the program to AWS Lambda with EFS. The Go runtime starts quickly.", true},
	{"draft-go", "Go generics, a draft", "Go generics with type parameters; go go go.", false},
	{"gardening", "Gardening", "Tomatoes need sun. Programming a watering schedule helps the garden.", true},
}

func newIndex() *search.Index {
	ix := search.New()
	for _, d := range corpus {
		ix.Add(d.key, "", d.title, d.body, d.public)
	}
	return ix
}

func keys(hs []search.Hit) string {
	var s []string
	for _, h := range hs {
		s = append(s, h.Key)
	}
	return strings.Join(s, ",")
}

func TestRelevance(t *testing.T) {
	t.Parallel()
	ix := newIndex()
	for _, tt := range []struct {
		q, want string // want: the expected top results, in order (a prefix of the result)
		total   int
	}{
		{"go", "go-intro,go-modules,deploy", 3},   // title matches first; the draft is not public
		{"modules", "go-modules", 1},              // title boost beats body mentions
		{"go program", "go-intro,deploy", 2},      // every word must match
		{"progr", "go-intro,gardening,deploy", 3}, // the last word is a prefix; two matches beat one
		{"program ", "deploy,go-intro", 2},        // not "programming" after a space; the shorter body first
		{"CAFE", "cafe", 1},                       // folded: café = CAFE
		{"café crème", "cafe", 1},                 //
		{"coffee beans", "coffee", 1},             //
		{"lambda deploy", "deploy", 1},            //
		{"tomato", "gardening", 1},                // prefix of "tomatoes"
		{"kubernetes", "", 0},                     // no such word
		{"go kubernetes", "", 0},                  // one word missing: nothing
		{"", "", 0},                               //
		{"!!!", "", 0},
		{"t", "", 0},           // one letter is no prefix
		{"ga", "gardening", 1}, // two are: "gardening", "garden"
	} {
		hits, total := ix.Search(search.Query{Text: tt.q, PublicOnly: true, Limit: 3})
		if got := keys(hits); got != tt.want || total != tt.total {
			t.Errorf("%q: got %s (total %d), want %s (total %d)", tt.q, got, total, tt.want, tt.total)
		}
	}
	// With drafts (the CP's search) the draft ranks first for "go": its title and body are full of it.
	if hits, total := ix.Search(search.Query{Text: "go", Limit: 1}); keys(hits) != "draft-go" || total != 4 {
		t.Errorf("with drafts: %s (total %d)", keys(hits), total)
	}
	// Paging.
	if hits, _ := ix.Search(search.Query{Text: "go", PublicOnly: true, Offset: 1, Limit: 1}); keys(hits) != "go-modules" {
		t.Errorf("page 2 of 1 = %s", keys(hits))
	}
}

func TestIncremental(t *testing.T) {
	t.Parallel()
	ix := newIndex()
	ix.Add("coffee", "", "Brewing tea", "Steep the leaves for three minutes.", true) // an edit
	if hits, _ := ix.Search(search.Query{Text: "coffee", PublicOnly: true}); keys(hits) != "" {
		t.Errorf("old words still found: %s", keys(hits))
	}
	if hits, _ := ix.Search(search.Query{Text: "tea leaves", PublicOnly: true}); keys(hits) != "coffee" {
		t.Errorf("new words not found: %s", keys(hits))
	}
	ix.Add("draft-go", "", "Go generics", "Published now.", true) // published
	if hits, _ := ix.Search(search.Query{Text: "generics", PublicOnly: true}); keys(hits) != "draft-go" {
		t.Errorf("published draft not found: %s", keys(hits))
	}
	ix.Remove("go-intro")
	ix.Remove("nope")
	if hits, total := ix.Search(search.Query{Text: "go", PublicOnly: true, Limit: 10}); strings.Contains(keys(hits), "go-intro") || total != 3 {
		t.Errorf("deleted entry found: %s (total %d)", keys(hits), total)
	}
	if ix.Len() != len(corpus)-1 {
		t.Errorf("Len = %d", ix.Len())
	}
	// Equal to an index built from scratch with the same documents.
	fresh := search.New()
	fresh.Add("coffee", "", "Brewing tea", "Steep the leaves for three minutes.", true)
	for _, d := range corpus {
		if d.key != "coffee" && d.key != "go-intro" && d.key != "draft-go" {
			fresh.Add(d.key, "", d.title, d.body, d.public)
		}
	}
	fresh.Add("draft-go", "", "Go generics", "Published now.", true)
	for _, q := range []string{"go", "the", "program", "tea", "generics", "caf"} {
		a, _ := ix.Search(search.Query{Text: q})
		b, _ := fresh.Search(search.Query{Text: q})
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("%q: incremental %v, fresh %v", q, a, b)
		}
	}
}

func TestSnippet(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ text, q, want string }{
		{"Grind the beans & heat the <water>.", "beans water", "Grind the <mark>beans</mark> &amp; heat the &lt;<mark>water</mark>&gt;."},
		{"Un café crème", "CAFE", "Un <mark>café</mark> crème"},
		{"Tomatoes need sun", "tom", "<mark>Tomatoes</mark> need sun"},
		{strings.Repeat("filler ", 40) + "needle here " + strings.Repeat("more ", 40), "needle",
			"… filler filler filler <mark>needle</mark> here more more more more more more more more more more more more more more more more more more more more more more more more more …"},
	} {
		if got := search.Snippet(tt.text, tt.q); got != tt.want {
			t.Errorf("Snippet(%q, %q) =\n%s\nwant\n%s", tt.text, tt.q, got, tt.want)
		}
	}
	if got := search.PlainText("# Title\n\nSee [the *docs*](https://x.example/a) and <b>bold</b> `code`."); got != "Title See the docs and bold code." {
		t.Errorf("PlainText = %q", got)
	}
}

// An index read back from its encoding answers every query as the original does, and keeps the
// tags; a damaged encoding is refused.
func TestEncodeDecode(t *testing.T) {
	t.Parallel()
	ix := newIndex()
	ix.Add("coffee", "h2", "Brewing tea", "Steep the leaves.", true)
	ix.Remove("go-modules") // a free id in the middle
	enc := string(ix.Encode(nil))
	got, err := search.Decode(enc)
	if err != nil {
		t.Fatal(err)
	}
	if tag, ok := got.Tag("coffee"); !ok || tag != "h2" || got.Len() != ix.Len() {
		t.Errorf("tag %q %v, len %d want %d", tag, ok, got.Len(), ix.Len())
	}
	for _, q := range []string{"go", "the", "progr", "tea", "café", "module"} {
		for _, pub := range []bool{false, true} {
			a, an := ix.Search(search.Query{Text: q, PublicOnly: pub})
			b, bn := got.Search(search.Query{Text: q, PublicOnly: pub})
			if fmt.Sprint(a) != fmt.Sprint(b) || an != bn {
				t.Errorf("%q: original %v, decoded %v", q, a, b)
			}
		}
	}
	// Still updatable after decoding.
	got.Add("new", "", "Kubernetes", "", true)
	if hits, _ := got.Search(search.Query{Text: "kube"}); keys(hits) != "new" {
		t.Errorf("after an add: %s", keys(hits))
	}
	for i := 0; i < len(enc); i += 7 {
		if _, err := search.Decode(enc[:i]); err == nil {
			t.Fatalf("truncated at %d: no error", i)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(string(newIndex().Encode(nil)))
	f.Add("")
	f.Add("\x01\x01a\x00\x01\x01\x01\x01\x01b\x01\x00\x01")
	f.Fuzz(func(t *testing.T, s string) {
		ix, err := search.Decode(s)
		if err != nil {
			return
		}
		ix.Search(search.Query{Text: "a b"})
		for _, k := range ix.Keys() {
			ix.Add(k, "", "x", "y", true)
		}
		ix.Search(search.Query{Text: "x"})
	})
}

type failAfter struct{ left int }

func (f *failAfter) Write(p []byte) (int, error) {
	if f.left < len(p) {
		n := max(f.left, 0)
		f.left = 0
		return n, fmt.Errorf("disk full")
	}
	f.left -= len(p)
	return len(p), nil
}

// WriteTo writes exactly what Encode appends, in pieces (an index of some hundreds of KB), and
// says how many bytes; with io.Discard it measures; a failing writer's error comes back.
func TestWriteTo(t *testing.T) {
	t.Parallel()
	ix := search.New()
	for i := range 6000 {
		ix.Add(fmt.Sprintf("doc-%d", i), "h", fmt.Sprintf("Title %d of many", i),
			strings.Repeat(fmt.Sprintf("word%d body text number %d ", i%97, i), 8), i%3 != 0)
	}
	want := ix.Encode(nil)
	if len(want) < 200<<10 {
		t.Fatalf("the index encodes to %d bytes; the test needs several pieces", len(want))
	}
	var pieces int
	var buf bytes.Buffer
	n, err := ix.WriteTo(writerFunc(func(p []byte) (int, error) { pieces++; return buf.Write(p) }))
	if err != nil || n != int64(len(want)) || !bytes.Equal(buf.Bytes(), want) {
		t.Fatalf("WriteTo: %d bytes, %v; equal to Encode: %v (%d bytes)", n, err, bytes.Equal(buf.Bytes(), want), len(want))
	}
	if pieces < 3 {
		t.Errorf("WriteTo wrote %d pieces; want the encoding in several", pieces)
	}
	if n, err := ix.WriteTo(io.Discard); err != nil || n != int64(len(want)) {
		t.Errorf("WriteTo(io.Discard) = %d, %v; want %d", n, err, len(want))
	}
	if _, err := ix.WriteTo(&failAfter{left: 100 << 10}); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("a failing writer: %v", err)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
