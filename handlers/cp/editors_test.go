package cp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"cms/handlers/cp"
	"cms/handlers/web/webtest"
)

// TestEditorBundlesServed: the modules the scripts load on demand (import('./vendor/…')) are
// served as JavaScript, so a screen with a Markdown or rich-text field finds its editor.
func TestEditorBundlesServed(t *testing.T) {
	t.Parallel()
	h := newCP(t, cp.Deps{})
	dyn := regexp.MustCompile(`import\('\./([^']+)'\)`)
	found := 0
	for _, f := range assetFiles(t, ".js") {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range dyn.FindAllStringSubmatch(string(src), -1) {
			found++
			w := webtest.Do(t, h, webtest.Request{Path: "/cp/assets/" + m[1]})
			if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/javascript") {
				t.Errorf("%s loads %s, which is %d %s", f, m[1], w.Code, w.Header().Get("Content-Type"))
			}
		}
	}
	if found < 2 {
		t.Errorf("found %d dynamic imports, want the CodeMirror and tiptap bundles", found)
	}
}

// TestEditorBundlesMatchLockFile: each committed bundle names, in its licence notice, the
// packages it holds at the versions package-lock.json pins (a bundle rebuilt from other versions,
// or a lock file changed without `make cp-bundle`, fails here), every one with its licence; and
// no bundle evaluates strings as code, which the CSP would refuse.
func TestEditorBundlesMatchLockFile(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("internal", "bundle", "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	var lock struct {
		Packages map[string]struct{ Version, License string } `json:"packages"`
	}
	if err := json.Unmarshal(raw, &lock); err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^ \*   (\S+) (\S+) \((\S+)\)$`)
	for _, name := range []string{"codemirror.js", "tiptap.js"} {
		src, err := os.ReadFile(filepath.Join("static", "assets", "vendor", name))
		if err != nil {
			t.Fatal(err)
		}
		end := strings.Index(string(src), "*/")
		if !strings.HasPrefix(string(src), "/*!") || end < 0 {
			t.Fatalf("%s does not start with its licence notice", name)
		}
		notice := string(src[:end])
		pkgs := line.FindAllStringSubmatch(notice, -1)
		if len(pkgs) < 5 {
			t.Errorf("%s names %d packages in its notice", name, len(pkgs))
		}
		for _, m := range pkgs {
			p, ok := lock.Packages["node_modules/"+m[1]]
			if !ok || p.Version != m[2] {
				t.Errorf("%s holds %s %s; package-lock.json pins %q", name, m[1], m[2], p.Version)
			}
			if !strings.Contains(notice, "Licence of ") || !strings.Contains(notice, m[1]) {
				t.Errorf("%s: no licence text for %s", name, m[1])
			}
		}
		if m := regexp.MustCompile(`\beval\(|new Function\(`).Find(src); m != nil {
			t.Errorf("%s evaluates strings as code (%s), which the CSP refuses", name, m)
		}
	}
}

// TestRichTextRules: the browser's rules for rich text are the server's (content/validate):
// visible text in text nodes, `required` wants some, min and max count its characters (code
// points), and a document stored as a JSON string is read as a document.
func TestRichTextRules(t *testing.T) {
	t.Parallel()
	const script = `globalThis.document = { querySelector: () => null };
const { check } = await import('./fields.js');
const { visibleText } = await import('./richtext.js');
const doc = (...texts) => ({ type: 'doc', content: [{ type: 'paragraph', content: texts.map((t) => ({ type: 'text', text: t, marks: [{ type: 'bold' }] })) },
  { type: 'bulletList', content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'li' }] }] }] }] });
const req = { type: 'tiptap', validate: ['required', 'min:4', 'max:6'] };
console.log(JSON.stringify([
  visibleText(doc('ab', 'c')), visibleText(JSON.stringify(doc('x'))), visibleText('**md**'), visibleText('{not json'),
  check(req, { type: 'doc', content: [{ type: 'paragraph' }] }),
  check(req, doc('  ')),
  check(req, doc('a')),
  check(req, doc('ab')),
  check(req, doc('abcde')),
  check(req, doc('é😀😀')),
  check({ type: 'tiptap' }, { type: 'doc', content: [] }),
  check(req, JSON.stringify(doc('abcdefg'))),
]));`
	want := `["abcli","xli","**md**","{not json",["This field is required"],[],["Must be at least 4 characters"],[],["Must be at most 6 characters"],[],[],["Must be at most 6 characters"]]`
	if got := runModule(t, script); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
