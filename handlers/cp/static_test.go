package cp_test

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"cms/handlers/cp"
	"cms/handlers/web/webtest"
)

// assetFiles lists the files under static/assets (the tests run in the package folder).
func assetFiles(t *testing.T, ext string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("static", "assets", "*"+ext))
	if err != nil || len(names) == 0 {
		t.Fatalf("no %s files under static/assets (%v)", ext, err)
	}
	return names
}

// TestPagesReferenceServedAssets: every src and href in the pages, and every module a script
// imports, is served with 200. A typo in a file name is otherwise only found in a browser.
func TestPagesReferenceServedAssets(t *testing.T) {
	t.Parallel()
	h := newCP(t, cp.Deps{})
	ref := regexp.MustCompile(`(?:src|href)="(/cp/assets/[^"?]+)`)
	for _, page := range []string{"/cp", "/cp/login"} {
		body := webtest.Do(t, h, webtest.Request{Path: page, Cookies: session}).Body.String()
		refs := ref.FindAllStringSubmatch(body, -1)
		if len(refs) < 3 {
			t.Errorf("%s names only %d assets:\n%s", page, len(refs), body)
		}
		for _, m := range refs {
			if w := webtest.Do(t, h, webtest.Request{Path: m[1]}); w.Code != 200 {
				t.Errorf("%s names %s, which is %d", page, m[1], w.Code)
			}
		}
	}
	imp := regexp.MustCompile(`(?m)^import .* from '\./([^']+)';$`)
	for _, f := range assetFiles(t, ".js") {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range imp.FindAllStringSubmatch(string(src), -1) {
			if w := webtest.Do(t, h, webtest.Request{Path: "/cp/assets/" + m[1]}); w.Code != 200 {
				t.Errorf("%s imports %s, which is %d", f, m[1], w.Code)
			}
		}
	}
}

// TestNoInlineCode: the CSP forbids inline scripts, styles and handlers, so the pages must not
// need them; and scripts build the page from text nodes, never from HTML strings, so content
// from the API cannot become markup.
func TestNoInlineCode(t *testing.T) {
	t.Parallel()
	h := newCP(t, cp.Deps{})
	inline := regexp.MustCompile(`(?i)<script(?:\s+type="module")?>|<style|\sstyle=|\son[a-z]+=|javascript:`)
	for _, page := range []string{"/cp", "/cp/login"} {
		body := webtest.Do(t, h, webtest.Request{Path: page, Cookies: session}).Body.String()
		if m := inline.FindString(body); m != "" {
			t.Errorf("%s has inline code: %q", page, m)
		}
	}
	unsafe := regexp.MustCompile(`innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function\(|localStorage`)
	for _, f := range assetFiles(t, ".js") {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := unsafe.FindString(string(src)); m != "" {
			t.Errorf("%s uses %s", f, m)
		}
	}
}

// TestScriptsParse runs node --check on every script, as ES modules. Browsers are the real
// judge; this catches syntax errors without one.
func TestScriptsParse(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: the Control Panel scripts were not syntax-checked (install Node.js to run this test)")
	}
	dir := t.TempDir()
	for _, f := range assetFiles(t, ".js") {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// .mjs makes node parse the file as a module whatever its version guesses for .js.
		mod := filepath.Join(dir, strings.TrimSuffix(filepath.Base(f), ".js")+".mjs")
		if err := os.WriteFile(mod, src, 0o600); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.CommandContext(t.Context(), node, "--check", mod).CombinedOutput(); err != nil {
			t.Errorf("%s does not parse: %v\n%s", f, err, out)
		}
	}
}

// TestScriptsReachTheirAPI: each endpoint the brief names is called by some script, so a renamed
// route shows up here rather than in an editor's browser.
func TestScriptsReachTheirAPI(t *testing.T) {
	t.Parallel()
	var all strings.Builder
	for _, f := range assetFiles(t, ".js") {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(src)
	}
	for _, want := range []string{
		`'/auth/login'`, `'/auth/logout'`, `'/users/me'`, `'/users/capabilities'`, `'/collections'`,
		"`/entries/${", `'/globals'`, "`/globals/${", `'/navigation'`, "`/navigation/${", `'/forms'`,
		"/submissions?", "/export/csv", "/export/json", `'/assets'`, "`/assets${", "'If-Match'", "contentHash",
		"'Retry-After'", "DEPTH_EXCEEDED", "INVALID_ENTRY_REFERENCE", "UPLOAD_FAILED", "'CONFLICT'",
		"credentials: 'same-origin'", "res.status === 401",
		`'/tokens'`, "`/tokens/${", `'/git/status'`, `'/git/sync'`, `'/git/retry'`, "'DISABLED'",
		`'/seo/redirects'`, "`/seo/redirects/${", `'/seo/not-found/promote'`, `'/seo/reports/run'`, `'/seo/preview'`,
		"/preview`", "params.set('q'", "details",
	} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("no script contains %s", want)
		}
	}
}

func TestContentTypes(t *testing.T) {
	t.Parallel()
	h := newCP(t, cp.Deps{})
	want := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
	for ext, ct := range want {
		for _, f := range assetFiles(t, ext) {
			w := webtest.Do(t, h, webtest.Request{Path: "/cp/assets/" + filepath.Base(f)})
			if w.Code != http.StatusOK || w.Header().Get("Content-Type") != ct {
				t.Errorf("%s: %d %q, want 200 %q", f, w.Code, w.Header().Get("Content-Type"), ct)
			}
		}
	}
}

// TestNavigationEditorRefusesURLAndEntry runs navigation.js under node: the editor finds every
// item, at any depth, that has both a url and an entry (the API refuses them), so it can say
// which before sending; url alone, entry alone and headings pass.
func TestNavigationEditorRefusesURLAndEntry(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: the navigation editor's check was not run (install Node.js to run this test)")
	}
	dir := t.TempDir()
	for _, f := range assetFiles(t, ".js") {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), src, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"type":"module"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	const script = `globalThis.document = { querySelector: () => null };
const { urlAndEntry } = await import('./navigation.js');
console.log(JSON.stringify(urlAndEntry([
  { label: 'url', url: '/a' },
  { label: 'both', url: '/about', entry: 'pages/about' },
  { label: 'heading', children: [
    { label: 'entry', entry: 'pages/about', url: null, missing: true },
    { label: 'sub', children: [{ label: 'h' }, { label: 'deep', url: 'https://x.example/', entry: 'blog/post' }] },
  ] },
])));`
	cmd := exec.CommandContext(t.Context(), node, "--input-type=module", "-e", script)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	if got, want := strings.TrimSpace(string(out)), `["items[1]","items[2].children[1].children[1]"]`; got != want {
		t.Errorf("urlAndEntry = %s, want %s", got, want)
	}
}

// TestNavigationTreeMoves runs the tree editor's moves under node: up, down, indent and outdent
// change the tree as an editor expects and return where the item went; a move beyond max_depth,
// or one with nowhere to go, is refused with a reason and changes nothing; drag and drop obeys
// the same limit.
func TestNavigationTreeMoves(t *testing.T) {
	t.Parallel()
	const script = `globalThis.document = { querySelector: () => null };
const { move, moveTo, depth, dropProblem } = await import('./navigation.js');
const tree = () => [{ label: 'a' }, { label: 'b', children: [{ label: 'b1' }, { label: 'b2' }] }, { label: 'c' }];
const names = (items) => items.map((i) => i.children ? i.label + '(' + names(i.children) + ')' : i.label).join(' ');
const out = [];
let t = tree(); let r = move(t, [2], 'up', 2); out.push(names(t) + ' @' + r.path);
t = tree(); r = move(t, [2], 'indent', 2); out.push(names(t) + ' @' + r.path);
t = tree(); r = move(t, [1, 1], 'indent', 2); out.push(names(t) + ' @' + r.path + ' d' + depth(t));
t = tree(); r = move(t, [1, 1], 'indent', 1); out.push(names(t) + ' ! ' + r.error);
t = tree(); r = move(t, [1, 0], 'outdent', 1); out.push(names(t) + ' @' + r.path);
t = tree(); r = move(t, [0], 'up', 1); out.push(names(t) + ' ! ' + r.error);
t = tree(); r = moveTo(t, [1], [0], 0); out.push(names(t) + ' ! ' + r.error);
t = tree(); r = moveTo(t, [2], [1, 0], 1); out.push(names(t) + ' @' + r.path);
t = tree(); out.push('over: ' + [dropProblem(t, [1], [1, 1], 2), dropProblem(t, [1], [2], 0), dropProblem(t, [1], [0], 1), dropProblem(t, [2], [1, 0], 1)].map((x) => x || 'ok').join(' | '));
console.log(out.join('\n'));`
	want := strings.Join([]string{
		"a c b(b1 b2) @1",
		"a b(b1 b2 c) @1,2",
		"a b(b1(b2)) c @1,0,0 d2",
		"a b(b1 b2) c ! b2 cannot go one level deeper: this navigation allows 1 level of nesting.",
		"a b(b2) b1 c @2",
		"a b(b1 b2) c ! a is already first at its level.",
		"a b(b1 b2) c ! b cannot go there: this navigation allows 0 levels of nesting.",
		"a b(c b1 b2) @1,0",
		"over: An item cannot go inside itself. | b cannot go there: this navigation allows 0 levels of nesting. | ok | ok",
	}, "\n")
	if got := runModule(t, script); got != want {
		t.Errorf("moves:\n%s\nwant:\n%s", got, want)
	}
}

// runModule runs an ES module script under node in a folder holding the CP's scripts and
// returns its trimmed output; it skips without node.
func runModule(t *testing.T, script string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: the CP script was not run (install Node.js to run this test)")
	}
	dir := t.TempDir()
	for _, f := range assetFiles(t, ".js") {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), src, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"type":"module"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), node, "--input-type=module", "-e", script)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestFieldRules runs the form builder's pure parts under node: the client-side rules give the
// server's messages, visibility is judged as the server judges it (booleans and numbers coerced
// from strings), options come from lists or maps, slugs are made from titles, and common YAML
// mistakes are found.
func TestFieldRules(t *testing.T) {
	t.Parallel()
	const script = `globalThis.document = { querySelector: () => null };
const { check, visible, optionList, slugify, yamlProblems, assetURL } = await import('./fields.js');
const out = [
  check({ type: 'text', required: true }, ''),
  check({ type: 'text', validate: ['min:3', 'max:5'] }, 'ab'),
  check({ type: 'text', validate: ['max:5', 'email'] }, 'abcdefg'),
  check({ type: 'text', validate: ['url'] }, 'not a url'),
  check({ type: 'text', validate: ['regex:^a'] }, 'ba'),
  check({ type: 'number', validate: ['min:2', 'numeric_range:1,10'] }, 11),
  check({ type: 'number', options: { integer: true } }, 1.5),
  check({ type: 'slug' }, 'Not A Slug'),
  check({ type: 'multiselect', validate: ['required'] }, []),
  check({ type: 'text', validate: ['alpha_dash'] }, 'x y'),
  [visible({ visibility: { field: 'f', operator: 'equals', value: 'true' } }, { f: true }),
   visible({ visibility: { field: 'n', operator: 'equals', value: '3' } }, { n: 3 }),
   visible({ visibility: { field: 's', operator: 'contains', value: 'al' } }, { s: 'sales' }),
   visible({ visibility: { field: 's', operator: 'empty' } }, { s: '' }),
   visible({ visibility: { field: 's', operator: 'not_equals', value: 'x' } }, { s: 'x' })],
  optionList({ options: { options: ['a', 'b'] } }), optionList({ options: { options: { k: 'Key' } } }),
  slugify('Ça va, Été 2026!'),
  yamlProblems('a: 1\n\tb: 2\nc: "open\nd:[1\ne:f'),
  [assetURL('photos/a b.png'), assetURL('assets::x.png'), assetURL('/assets/logo.svg'), assetURL('https://cdn.example/x.png')],
];
console.log(JSON.stringify(out));`
	want := `[["This field is required"],["Must be at least 3 characters"],["Must be at most 5 characters","Must be a valid email address"],` +
		`["Must be a valid URL"],["Must match pattern ^a"],["Must be at most 10"],["Must be a whole number"],` +
		`["Must contain only lowercase letters, numbers, and hyphens"],["This field is required"],[],[true,true,true,true,false],` +
		`[["a","a"],["b","b"]],[["k","Key"]],"ca-va-ete-2026",` +
		`["YAML syntax error on line 2: tabs are not allowed for indentation","YAML syntax error on line 3: unclosed quote",` +
		`"YAML syntax error on line 4: unbalanced brackets","YAML syntax error on line 4: a colon after a key needs a space",` +
		`"YAML syntax error on line 5: a colon after a key needs a space"],` +
		`["/assets/photos/a%20b.png","/assets/x.png","/assets/logo.svg","https://cdn.example/x.png"]]`
	if got := runModule(t, script); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
