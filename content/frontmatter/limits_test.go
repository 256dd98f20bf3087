package frontmatter_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"cms/content"
	"cms/content/frontmatter"
)

// nested returns leaf inside n lists.
func nested(n int, leaf any) any {
	v := leaf
	for range n {
		v = []any{v}
	}
	return v
}

func wantLimit(t *testing.T, err error, code string) {
	t.Helper()
	ce, ok := errors.AsType[*content.Error](err)
	if !ok || ce.Code != code {
		t.Fatalf("err = %v, want a content.Error with code %s", err, code)
	}
}

// The writer and the reader share one nesting limit: a document nested exactly as deep as
// content.MaxNesting is written and read back unchanged; one level more is refused by both.
func TestNestingLimitIsSharedByWriterAndReader(t *testing.T) {
	t.Parallel()
	at := content.NewMap(1)
	at.Set("a", nested(content.MaxNesting-1, "leaf")) // the top-level mapping is the first level
	if n := content.Nesting(at); n != content.MaxNesting {
		t.Fatalf("Nesting = %d, want %d", n, content.MaxNesting)
	}
	raw, err := frontmatter.MarshalYAML(at)
	if err != nil {
		t.Fatalf("MarshalYAML at the limit: %v", err)
	}
	back, err := frontmatter.ParseYAMLMap(raw, 1)
	if err != nil {
		t.Fatalf("reading back a document at the limit: %v", err)
	}
	if j1, j2 := mustJSON(t, at), mustJSON(t, back); j1 != j2 {
		t.Fatalf("round trip changed the document:\n%s\n%s", j1, j2)
	}

	over := content.NewMap(1)
	over.Set("x", at)
	_, err = frontmatter.MarshalYAML(over)
	wantLimit(t, err, content.CodeNestingTooDeep)
	// The same document as the writer would lay it out, and in flow style, one level deeper.
	block := "x:\n  " + strings.ReplaceAll(strings.TrimSuffix(string(raw), "\n"), "\n", "\n  ") + "\n"
	flow := "a: " + strings.Repeat("[", content.MaxNesting) + "0" + strings.Repeat("]", content.MaxNesting) + "\n"
	for name, src := range map[string]string{"block": block, "flow": flow} {
		if _, err := frontmatter.ParseYAMLMap([]byte(src), 1); err == nil || !strings.Contains(err.Error(), "nests mappings and lists more than 100 levels deep") {
			t.Errorf("%s style one level over the limit: err = %v", name, err)
		}
	}
}

// The writer and the reader share one size limit: a document of exactly
// content.MaxDocumentBytes is written and read back; one byte more is refused by both.
func TestSizeLimitIsSharedByWriterAndReader(t *testing.T) {
	t.Parallel()
	doc := func(n int) *content.Map {
		m := content.NewMap(1)
		m.Set("a", strings.Repeat("x", n)) // written as "a: xxx…\n"
		return m
	}
	at := doc(content.MaxDocumentBytes - len("a: \n"))
	raw, err := frontmatter.MarshalYAML(at)
	if err != nil {
		t.Fatalf("MarshalYAML at the limit: %v", err)
	}
	if len(raw) != content.MaxDocumentBytes {
		t.Fatalf("document is %d bytes, want %d", len(raw), content.MaxDocumentBytes)
	}
	back, err := frontmatter.ParseYAMLMap(raw, 1)
	if err != nil {
		t.Fatalf("reading back a document at the limit: %v", err)
	}
	if s, _ := back.String("a"); s != at.Value("a") {
		t.Fatal("round trip changed the document")
	}

	_, err = frontmatter.MarshalYAML(doc(content.MaxDocumentBytes - len("a: \n") + 1))
	wantLimit(t, err, content.CodeDocumentTooLarge)
	if _, err := frontmatter.ParseYAMLMap(append(raw, '#'), 1); err == nil || !strings.Contains(err.Error(), "larger than 4 MiB") {
		t.Errorf("reading a document one byte over the limit: err = %v", err)
	}
}

// A value nested far too deeply is refused before any YAML is built: the work does not grow
// with the depth.
func TestMarshalRefusesDeepValuesBeforeBuildingThem(t *testing.T) {
	deep := content.NewMap(1)
	deep.Set("a", nested(100_000, 0))
	var err error
	allocs := testing.AllocsPerRun(5, func() { _, err = frontmatter.MarshalYAML(deep) })
	wantLimit(t, err, content.CodeNestingTooDeep)
	if allocs > 10 {
		t.Errorf("refusing a 100,000-deep value made %.0f allocations; it should refuse before converting it", allocs)
	}
}

// A value that is small in memory but indents into YAML many times the size limit is refused
// once the output reaches the limit: what the encoder allocates stays near the limit, not near
// the size the YAML would have had.
func TestMarshalMemoryIsBounded(t *testing.T) {
	// 400 KB of one-letter lines, 90 lists deep: each line is indented by about 180 spaces, so
	// the YAML would be some 36 MB.
	v := content.NewMap(1)
	v.Set("a", nested(90, strings.Repeat("a\n", 200_000)+"a"))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := frontmatter.MarshalYAML(v)
	runtime.ReadMemStats(&after)
	if allocated, limit := after.TotalAlloc-before.TotalAlloc, uint64(5*content.MaxDocumentBytes); allocated > limit {
		t.Errorf("encoding the document allocated %d bytes, more than %d", allocated, limit)
	}
	wantLimit(t, err, content.CodeDocumentTooLarge)
}

func mustJSON(t *testing.T, m *content.Map) string {
	t.Helper()
	b, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
