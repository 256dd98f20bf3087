// The browser tests run without the race detector (see the Makefile): under it, compiling the
// hook module they upload takes ten times longer, and the server is covered by -race elsewhere.

//go:build !race

package cpbrowser

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"gopkg.in/yaml.v3"

	"cms/content/entryfile"
)

// TestControlPanel drives the Control Panel as an editor would, one screen after another in one
// browser (starting Chromium is the slow part, so the steps share it).
func TestControlPanel(t *testing.T) {
	kitchen, err := os.ReadFile(filepath.Join("testdata", "kitchen.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	s := startSite(t, string(kitchen))
	b := newBrowser(t)
	// Git sync is off on this site: the header's indicator asks once and gets a 409 DISABLED.
	b.expect("/api/git/status")
	// The static cache is off too: the settings screen's cache panel asks, gets 409 and stays hidden.
	b.expect("/api/cache")
	b.signIn(s)
	b.waitJS(`document.querySelector('main h1')?.textContent.startsWith('Welcome') && document.querySelector('main .dash')`)
	b.shot("dashboard")
	if got := b.text("main .cards"); !strings.Contains(got, "6 entries, 2 drafts") {
		t.Errorf("dashboard cards = %q, want the blog's 6 entries and 2 drafts", got)
	}
	if got := b.text("#user-name"); !strings.Contains(got, "Ada Admin") {
		t.Errorf("signed-in user shown as %q, want Ada Admin", got)
	}
	b.checkConsole()
	// The accessibility check can fail: a pale text and an unlabelled input on the page are caught.
	probe := eval[[]string](b, `(() => { const d = document.createElement('div'); d.id = 'probe';
		const p = document.createElement('p'); p.textContent = 'pale'; p.style.color = '#ccc'; d.append(p, document.createElement('input'));
		document.querySelector('main').append(d); const out = `+a11yScript+`; d.remove(); return out; })()`)
	if len(probe) != 2 || !strings.Contains(probe[0]+probe[1], "contrast") || !strings.Contains(probe[0]+probe[1], "without a label") {
		t.Errorf("the accessibility check missed a planted problem: %q", probe)
	}

	t.Run("entry with every field type", func(t *testing.T) { entryEveryType(t, s, b) })
	t.Run("global from its blueprint", func(t *testing.T) { globalForm(t, s, b) })
	t.Run("navigation by keyboard", func(t *testing.T) { navigationByKeyboard(t, s, b) })
	t.Run("users and roles", func(t *testing.T) { usersAndRoles(t, s, b) })
	t.Run("hooks", func(t *testing.T) { hookUpload(t, s, b) })
	t.Run("entry search, preview and SEO panel", func(t *testing.T) { entrySearchAndPreview(t, s, b) })
	t.Run("API tokens", func(t *testing.T) { apiTokens(t, s, b) })
	t.Run("SEO", func(t *testing.T) { seoScreens(t, s, b) })
	t.Run("other screens", func(t *testing.T) { otherScreens(t, s, b) })
	t.Run("phone width", func(t *testing.T) { phoneWidth(t, s, b) })
	t.Run("account and sign out", func(t *testing.T) { accountAndSignOut(t, s, b) })
	t.Run("git sync", func(t *testing.T) { gitSync(t, b) })
}

// f is the CSS selector of an element inside a blueprint field's wrapper.
func f(handle, inner string) string { return `[data-field="` + handle + `"] ` + inner }

// entryEveryType creates an entry filling one field of every type, saves, reloads and finds
// every value as entered, in the browser and in the file; then a validation error, a conflict
// with a second session, and its resolution.
func entryEveryType(t *testing.T, s *site, b *browser) {
	b.t = t
	pngPath := filepath.Join(t.TempDir(), "cover-photo.png")
	writePNG(t, pngPath)

	b.run(chromedp.Navigate(s.url + "/cp/entries/kitchen/_new"))
	b.waitJS(`document.querySelector('[data-field="subtitle"] input')`)
	// Defaults pre-filled on create; the promotion line shows only for featured entries.
	if got := eval[string](b, `document.querySelector('[data-field="count"] input').value`); got != "3" {
		t.Errorf("count default = %q, want 3", got)
	}
	if eval[bool](b, `!document.querySelector('[data-field="promo"]').hidden`) {
		t.Error("promotion line visible although featured is off")
	}
	if got := b.text(`[data-field="subtitle"] .help`); got != "Shown under the title." {
		t.Errorf("instructions = %q", got)
	}
	b.shot("entry-new")

	b.typeIn(`#f-title`, "Kitchen Sink")
	if got := eval[string](b, `document.querySelector('#f-slug').value + ' ' + document.querySelector('[data-field="ref_slug"] input').value`); got != "kitchen-sink kitchen-sink" {
		t.Errorf("slugs made from the title = %q", got)
	}
	b.typeIn(f("subtitle", "input"), "Short")
	// The Markdown (CodeMirror) and rich-text (tiptap) editors load on demand (editors_test.go).
	b.waitJS(`document.querySelector('[data-field="intro"] .md[data-editor="codemirror"]') && document.querySelector('[data-field="rich"] .rt[data-editor="tiptap"]')`)
	b.typeIn(f("intro", ".cm-content"), "Some ")
	b.click(f("intro", `button[aria-label="Bold"]`)) // wraps a placeholder word in **
	b.waitJS(`document.querySelector('[data-field="intro"] .md-preview strong')?.textContent === 'text'`)
	b.typeIn(f("rich", ".rt-input"), "Rich words")
	b.setValue(f("count", "input"), "7")
	b.click(f("featured", "input"))
	b.waitJS(`!document.querySelector('[data-field="promo"]').hidden`)
	b.typeIn(f("promo", "input"), "Promo!")
	b.run(chromedp.SetValue(chromedp.CSS(f("mood", "select")), "busy"))
	b.click(f("colours", `input[value="green"]`))
	b.click(f("colours", `input[value="blue"]`))
	b.setValue(f("published_on", "input"), "2026-05-04")
	b.shot("entry-main-tab")

	b.click(`[data-tab="relations"]`)
	b.run(chromedp.SetUploadFiles(chromedp.CSS(f("cover", `input[type="file"]`)), []string{pngPath}))
	b.waitText(f("cover", ".picked"), "cover-photo.png")
	b.typeIn(f("related", `input[type="search"]`), "Abo")
	b.waitText(f("related", `[role="listbox"]`), "About")
	b.typeIn(f("related", `input[type="search"]`), "\r")
	b.waitText(f("related", ".picked"), "About")
	b.waitJS(`document.querySelector('[data-field="topics"] input[value="news"]')`)
	b.click(f("topics", `input[value="news"]`))
	b.waitJS(`document.querySelector('[data-field="topics"] input[value="news"]').checked`)
	// A term made on the spot is ticked at once.
	b.typeIn(f("topics", `input[type="text"]`), "Fresh Ideas")
	b.click(f("topics", ".row button"))
	b.waitJS(`document.querySelector('[data-field="topics"] input[value="fresh-ideas"]')?.checked`)
	b.shot("entry-relations-tab")

	b.click(`[data-tab="builder"]`)
	b.click(f("sections", ".add-set button:nth-child(1)"))
	b.typeIn(f("sections", `.set:nth-child(1) [data-field="heading"] input`), "First set")
	b.waitJS(`document.querySelector('[data-field="sections"] .set:nth-child(1) [data-field="body"] .md[data-editor="codemirror"]')`)
	b.typeIn(f("sections", `.set:nth-child(1) [data-field="body"] .cm-content`), "Set body")
	b.click(f("sections", ".add-set button:nth-child(2)"))
	b.typeIn(f("sections", `.set:nth-child(2) [data-field="heading"] input`), "Second set")
	b.click(f("rows", ".add-set button"))
	b.typeIn(f("rows", `.set [data-field="label"] input`), "Row one")
	b.shot("entry-builder-tab")

	b.click(`[data-tab="extras"]`)
	b.setValue(f("settings_yaml", "textarea"), "a: 1\nb: [x, y]\n")
	b.typeIn(f("snippet", "textarea"), `{"k": 1}`)
	b.typeIn(f("code_name", "input"), "ok_name")
	b.shot("entry-extras-tab")

	b.click(`form.editor button[type="submit"]`)
	b.waitJS(`location.pathname.endsWith('/entries/kitchen/kitchen-sink') && document.querySelector('main h1')?.textContent === 'Kitchen Sink'`)

	// Reload: every value comes back from the server as entered.
	if eval[bool](b, `document.body.dataset.unsaved === 'true'`) {
		t.Error("after saving, the page still says there are unsaved changes")
	}
	b.run(chromedp.Reload())
	b.waitJS(`document.querySelector('[data-field="subtitle"] input')?.value === 'Short' && document.querySelector('[data-field="rich"] .rt[data-editor="tiptap"]') && document.querySelector('[data-field="intro"] .md[data-editor="codemirror"]')`)
	b.shot("entry-saved")
	got := eval[map[string]any](b, `(() => {
		const q = (s) => document.querySelector(s);
		const v = (h, s = 'input') => q('[data-field="' + h + '"] ' + s)?.value;
		const text = (h, s) => q('[data-field="' + h + '"] ' + s)?.textContent;
		const ticked = (h) => [...document.querySelectorAll('[data-field="' + h + '"] input[type=checkbox]:checked')].map((i) => i.value);
		return {
			title: q('#f-title').value, subtitle: v('subtitle'), ref_slug: v('ref_slug'), intro: text('intro', '.cm-content'),
			rich: text('rich', '.rt-input'), count: v('count'), featured: q('[data-field="featured"] input').checked, promo: v('promo'),
			mood: v('mood', 'select'), colours: ticked('colours'), published_on: v('published_on'),
			cover: q('[data-field="cover"] .picked').textContent, related: q('[data-field="related"] .picked').textContent,
			topics: ticked('topics'), sets: [...document.querySelectorAll('[data-field="sections"] .set')].map((s) => s.dataset.type),
			rows: document.querySelectorAll('[data-field="rows"] .set').length, yaml: v('settings_yaml', 'textarea'),
			snippet: v('snippet', 'textarea'), code_name: v('code_name'),
		};
	})()`)
	want := map[string]any{
		"title": "Kitchen Sink", "subtitle": "Short", "ref_slug": "kitchen-sink", "intro": "Some **text**", "rich": "Rich words",
		"count": "7", "featured": true, "promo": "Promo!", "mood": "busy", "colours": []any{"green", "blue"},
		"published_on": "2026-05-04", "topics": []any{"news", "fresh-ideas"}, "sets": []any{"text_block", "call_to_action"},
		"rows": float64(1), "yaml": "a: 1\nb: [x, y]\n", "snippet": `{"k": 1}`, "code_name": "ok_name",
	}
	for k, w := range want {
		if !reflect.DeepEqual(got[k], w) {
			t.Errorf("after reload, %s = %#v, want %#v", k, got[k], w)
		}
	}
	if c, _ := got["cover"].(string); !strings.Contains(c, "cover-photo.png") {
		t.Errorf("after reload, cover shows %q", c)
	}
	if r, _ := got["related"].(string); !strings.Contains(r, "About") || !strings.Contains(r, "pages/about") {
		t.Errorf("after reload, related shows %q", r)
	}

	// The file on disk holds the values in the stored shapes.
	data := readEntry(t, s, "kitchen", "kitchen-sink")
	wantData := map[string]any{
		"subtitle": "Short", "ref_slug": "kitchen-sink", "intro": "Some **text**", "count": 7,
		"rich":     map[string]any{"type": "doc", "content": []any{map[string]any{"type": "paragraph", "content": []any{map[string]any{"type": "text", "text": "Rich words"}}}}},
		"featured": true, "promo": "Promo!", "mood": "busy", "colours": []any{"green", "blue"}, "published_on": "2026-05-04",
		"cover": "cover-photo.png", "related": []any{"pages/about"}, "topics": []any{"news", "fresh-ideas"}, "settings_yaml": "a: 1\nb: [x, y]\n",
		"snippet": `{"k": 1}`, "code_name": "ok_name", "secret": "kept", "rows": []any{map[string]any{"label": "Row one"}},
	}
	for k, w := range wantData {
		if g := norm(data[k]); !reflect.DeepEqual(g, norm(w)) {
			t.Errorf("file: %s = %#v, want %#v", k, g, w)
		}
	}
	secs, _ := data["sections"].([]any)
	if len(secs) != 2 {
		t.Fatalf("file: sections = %#v, want two sets", data["sections"])
	}
	for i, w := range []map[string]any{{"_type": "text_block", "heading": "First set", "body": "Set body"}, {"_type": "call_to_action", "heading": "Second set"}} {
		set, _ := secs[i].(map[string]any)
		for k, v := range w {
			if set[k] != v {
				t.Errorf("file: sections[%d].%s = %#v, want %#v", i, k, set[k], v)
			}
		}
		if id, _ := set["_id"].(string); id == "" {
			t.Errorf("file: sections[%d] has no _id", i)
		}
	}
	if st, err := os.Stat(filepath.Join(s.dir, "public", "assets", "cover-photo.png")); err != nil || st.Size() == 0 {
		t.Errorf("uploaded file on disk: %v", err)
	}
	b.checkConsole()

	// The same rules as the server, before saving: the message at its field, nothing sent.
	b.setValue(f("subtitle", "input"), "")
	b.typeIn(f("subtitle", "input"), "far too long for the twenty character limit")
	b.run(chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl))) // Ctrl+S saves
	b.waitText(f("subtitle", ".field-error"), "Must be at most 20 characters")
	b.setValue(f("subtitle", "input"), "")
	b.typeIn(f("subtitle", "input"), "Mine")

	// A rule only the server knows: its 422 lands at the field, on a tab marked as having errors.
	b.expect("status of 422")
	b.click(`[data-tab="extras"]`)
	b.setValue(f("code_name", "input"), "")
	b.typeIn(f("code_name", "input"), "not ok!")
	b.click(`[data-tab="main"]`)
	b.click(`form.editor button[type="submit"]`)
	b.waitText(f("code_name", ".field-error"), "Must contain only letters, numbers, dashes, and underscores")
	if !eval[bool](b, `document.querySelector('[data-tab="extras"]').classList.contains('has-error') && document.querySelector('[data-tab="extras"]').getAttribute('aria-selected') === 'true'`) {
		t.Error("the Extras tab is not marked and opened for its field's error")
	}
	b.shot("entry-validation-error")
	b.setValue(f("code_name", "input"), "")
	b.typeIn(f("code_name", "input"), "ok_again")

	// A second session saves first: the conflict says what they changed; overwrite keeps mine.
	other := newAPIClient(t, s)
	var cur struct{ Data struct{ ContentHash string } }
	other.do("GET", "/api/entries/kitchen/kitchen-sink", nil, &cur)
	other.do("PUT", "/api/entries/kitchen/kitchen-sink", map[string]any{"title": "Kitchen Sink (theirs)", "contentHash": cur.Data.ContentHash}, nil)
	b.expect("status of 409")
	b.click(`form.editor button[type="submit"]`)
	b.waitText(`.conflict`, "They changed: Title")
	b.shot("entry-conflict")
	b.click(`.conflict button:not(.secondary)`)
	b.waitText(`form.editor > .notice`, "Saved at")
	b.waitJS(`document.querySelector('main h1')?.textContent === 'Kitchen Sink'`)
	if eval[bool](b, `document.body.dataset.unsaved === 'true'`) {
		t.Error("after overwriting, the page still says there are unsaved changes")
	}
	if eval[bool](b, `document.body.dataset.unsaved === 'true'`) {
		t.Error("after overwriting, the page still says there are unsaved changes")
	}
	data = readEntry(t, s, "kitchen", "kitchen-sink")
	if data["subtitle"] != "Mine" || data["code_name"] != "ok_again" || data["title"] != "Kitchen Sink" {
		t.Errorf("after overwrite: title %v, subtitle %v, code_name %v; want mine", data["title"], data["subtitle"], data["code_name"])
	}
	b.checkConsole()

	// The unsaved-changes guard: leaving with an edit asks first.
	b.typeIn(f("subtitle", "input"), "!")
	b.expectDialog("unsaved changes")
	b.click(`#sidebar a[href$="/cp/globals"]`)
	b.waitJS(`location.pathname.endsWith('/cp/globals') && document.querySelector('main .cards')`)
	if !b.sawDialog("Leave this page? Your unsaved changes will be lost.") {
		t.Error("leaving the editor with unsaved changes asked nothing")
	}
	if got := readEntry(t, s, "kitchen", "kitchen-sink")["subtitle"]; got != "Mine" {
		t.Errorf("leaving without saving changed the file: subtitle %v", got)
	}
}

// globalForm edits the site settings global in its blueprint form: a text field, a set moved
// up by keyboard in the social links replicator, and a new set; the file keeps every value.
func globalForm(t *testing.T, s *site, b *browser) {
	b.t = t
	b.run(chromedp.Navigate(s.url + "/cp/globals/site-settings"))
	b.waitJS(`document.querySelector('[data-field="tagline"] input')?.value.startsWith('A small site')`)
	b.shot("global-general")
	b.setValue(f("tagline", "input"), "Edited in the browser")
	b.click(`[data-tab="social"]`)
	b.click(f("social", `.set:nth-child(2) button[aria-label="Move set 2 up"]`))
	b.waitText(f("social", ".set:nth-child(1) .set-toggle"), "Code")
	b.click(f("social", ".add-set button"))
	b.typeIn(f("social", `.set:nth-child(3) [data-field="network"] input`), "Video")
	b.typeIn(f("social", `.set:nth-child(3) [data-field="url"] input`), "https://video.example/starter")
	b.shot("global-social")
	// A second session changes the site name first: the conflict names it; reload, then save again.
	other := newAPIClient(t, s)
	var cur map[string]any
	other.do("GET", "/api/globals/site-settings", nil, &cur)
	vals, _ := cur["data"].(map[string]any)
	vals["site_name"] = "Their Site"
	other.do("PUT", "/api/globals/site-settings", vals, nil)
	b.expect("status of 409")
	b.click(`form.editor .actions button[type="submit"]`)
	b.waitText(`.conflict`, "They changed: Site name.")
	b.shot("global-conflict")
	b.click(`.conflict button`)
	b.waitJS(`document.querySelector('[data-field="site_name"] input')?.value === 'Their Site'`)
	b.setValue(f("tagline", "input"), "Edited in the browser")
	b.click(`[data-tab="social"]`)
	b.click(f("social", `.set:nth-child(2) button[aria-label="Move set 2 up"]`))
	b.waitText(f("social", ".set:nth-child(1) .set-toggle"), "Code")
	b.click(f("social", ".add-set button"))
	b.typeIn(f("social", `.set:nth-child(3) [data-field="network"] input`), "Video")
	b.typeIn(f("social", `.set:nth-child(3) [data-field="url"] input`), "https://video.example/starter")
	b.click(`form.editor .actions button[type="submit"]`)
	b.waitText(`form.editor > .notice`, "Saved at")
	raw, err := os.ReadFile(filepath.Join(s.dir, "content", "globals", "site-settings.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		SiteName     string `yaml:"site_name"`
		Tagline      string
		ContactEmail string `yaml:"contact_email"`
		Social       []struct {
			Type    string `yaml:"_type"`
			Network string
			URL     string
		}
	}
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var nets []string
	for _, l := range doc.Social {
		nets = append(nets, l.Type+":"+l.Network)
	}
	if doc.SiteName != "Their Site" || doc.Tagline != "Edited in the browser" || doc.ContactEmail != "hello@example.com" ||
		!reflect.DeepEqual(nets, []string{"social_link:Code", "social_link:Mastodon", "social_link:Video"}) {
		t.Errorf("global file after save:\n%s", raw)
	}
	b.checkConsole()
}

// navigationByKeyboard reorders and nests the main menu with Alt+Arrow keys only, is refused a
// move beyond max_depth, saves, and finds the tree in the file.
func navigationByKeyboard(t *testing.T, s *site, b *browser) {
	b.t = t
	b.run(chromedp.Navigate(s.url + "/cp/navigation/main"))
	b.run(chromedp.WaitVisible(chromedp.CSS(`.nav-label[data-label="Contact"]`)))
	b.shot("navigation-tree")
	key := func(label, k string) {
		t.Helper()
		b.run(chromedp.Focus(chromedp.CSS(`.nav-label[data-label="`+label+`"]`)), chromedp.KeyEvent(k, chromedp.KeyModifiers(chromedp.ModifierAlt)))
	}
	key("Contact", kb.ArrowUp)    // Home, About, Contact, Blog, Markdown guide
	key("Contact", kb.ArrowRight) // under About
	key("Welcome", kb.ArrowRight) // under All posts (level 2 of 2)
	key("Forms and hooks", kb.ArrowRight)
	key("Forms and hooks", kb.ArrowRight) // under Welcome would be level 3: refused
	b.waitText(`form.editor .notice`, "cannot go one level deeper")
	if got := eval[string](b, `document.activeElement?.dataset.label ?? ''`); got != "Forms and hooks" {
		t.Errorf("focus after the moves is on %q, want the moved item", got)
	}
	b.shot("navigation-moved")
	// The item editor shows the blueprint's own fields too.
	b.click(`.nav-label[data-label="Home"]`)
	b.run(chromedp.WaitVisible(chromedp.CSS(f("icon", "select"))), chromedp.SetValue(chromedp.CSS(f("icon", "select")), "star"))
	b.shot("navigation-item")
	b.click(`form.editor .actions button[type="submit"]`)
	b.waitText(`form.editor .notice`, "Saved at")
	raw, err := os.ReadFile(filepath.Join(s.dir, "content", "navigation", "main.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Items []struct {
			Label    string
			Icon     string
			Children []struct {
				Label    string
				Children []struct{ Label string }
			}
		}
	}
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var top []string
	for _, it := range doc.Items {
		top = append(top, it.Label)
	}
	if want := []string{"Home", "About", "Blog", "Markdown guide"}; !reflect.DeepEqual(top, want) {
		t.Errorf("top level = %v, want %v\n%s", top, want, raw)
	} else {
		if doc.Items[0].Icon != "star" {
			t.Errorf("Home's icon = %q, want star", doc.Items[0].Icon)
		}
		about, blog := doc.Items[1], doc.Items[2]
		if len(about.Children) != 1 || about.Children[0].Label != "Contact" {
			t.Errorf("About's children = %+v, want Contact", about.Children)
		}
		if len(blog.Children) != 1 || blog.Children[0].Label != "All posts" || len(blog.Children[0].Children) != 2 ||
			blog.Children[0].Children[0].Label != "Welcome" || blog.Children[0].Children[1].Label != "Forms and hooks" {
			t.Errorf("Blog's subtree = %+v, want All posts > Welcome, Forms and hooks", blog.Children)
		}
	}
	b.shot("navigation-saved")
	b.checkConsole()
}

// usersAndRoles creates a role with the permission matrix, a user holding it, edits the user,
// resets their password and deletes them.
func usersAndRoles(t *testing.T, s *site, b *browser) {
	b.t = t
	b.run(chromedp.Navigate(s.url + "/cp/roles/_new"))
	b.typeIn(`#f-handle`, "reviewer")
	b.typeIn(`#f-display`, "Reviewer")
	b.click(`input[aria-label="entries: view"]`)
	b.click(`input[aria-label="entries: edit"]`)
	b.click(`input[aria-label="assets: view"]`)
	b.shot("role-new")
	b.click(`form.editor button[type="submit"]`)
	b.waitJS(`location.pathname.endsWith('/roles/reviewer') && document.querySelector('main h1')?.textContent === 'Reviewer'`)
	role, err := os.ReadFile(filepath.Join(s.dir, "resources", "roles", "reviewer.yaml"))
	if err != nil || !strings.Contains(string(role), "entries") || !strings.Contains(string(role), "edit") || !strings.Contains(string(role), "assets") {
		t.Errorf("role file: %v\n%s", err, role)
	}
	b.shot("role-saved")

	b.run(chromedp.Navigate(s.url + "/cp/users/_new"))
	b.typeIn(`#f-name`, "Rita Reviewer")
	b.typeIn(`#f-email`, "rita@example.com")
	b.typeIn(`#f-password`, "a long enough password")
	b.click(`input[name="roles"][value="reviewer"]`)
	b.click(`form.editor button[type="submit"]`)
	b.waitJS(`document.querySelector('main h1')?.textContent === 'Rita Reviewer'`)
	id := eval[string](b, `decodeURIComponent(location.pathname.split('/').pop())`)
	if !eval[bool](b, `document.querySelector('input[name="roles"][value="reviewer"]').checked`) {
		t.Error("the new user does not show the reviewer role")
	}
	b.setValue(`#f-name`, "")
	b.typeIn(`#f-name`, "Rita R.")
	b.click(`form.editor button[type="submit"]`)
	b.waitText(`form.editor .notice`, "Saved Rita R.")
	b.typeIn(`#f-new-password`, "another long password!")
	b.click(`form.editor:nth-of-type(2) button[type="submit"]`)
	b.waitText(`form.editor:nth-of-type(2) .notice`, "Password set")
	b.shot("user-edit")
	if _, err := os.Stat(filepath.Join(s.dir, "users", id+".yaml")); err != nil {
		t.Errorf("user file: %v", err)
	}
	b.expectDialog("Delete the user")
	b.click(`form.editor button.danger`)
	b.waitJS(`location.pathname.endsWith('/cp/users') && document.querySelector('main table')`)
	if strings.Contains(b.text("main table"), "Rita") {
		t.Error("deleted user still listed")
	}
	if _, err := os.Stat(filepath.Join(s.dir, "users", id+".yaml")); err == nil {
		t.Error("deleted user's file is still there")
	}
	b.shot("users")
	b.checkConsole()
}

// hookUpload installs a good module, sees the checks pass, and sees a bad one refused.
func hookUpload(t *testing.T, s *site, b *browser) {
	b.t = t
	good, err := filepath.Abs(filepath.Join("..", "..", "wasmhooks", "testdata", "disposable-email.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	b.run(chromedp.Navigate(s.url + "/cp/hooks"))
	b.run(chromedp.WaitVisible(chromedp.CSS(`#f-hook-file`)), chromedp.SetUploadFiles(chromedp.CSS(`#f-hook-file`), []string{good}))
	b.waitJS(`document.querySelector('#f-hook-name').value === 'disposable-email'`)
	b.click(`form.editor button[type="submit"]`)
	// Checking compiles the 3 MB module: slow on a busy machine, so a longer failure guard.
	b.waitJSFor(`(document.querySelector('.hook-result')?.textContent ?? '').includes('passed the checks')`, 3*time.Minute)
	b.waitText(`main table`, "disposable-email")
	if _, err := os.Stat(filepath.Join(s.dir, "resources", "hooks", "disposable-email.wasm")); err != nil {
		t.Errorf("hook module on disk: %v", err)
	}
	b.shot("hooks-installed")
	bad, _ := filepath.Abs(filepath.Join("..", "..", "wasmhooks", "testdata", "badimport.wasm"))
	b.expect("status of 422")
	b.run(chromedp.SetUploadFiles(chromedp.CSS(`#f-hook-file`), []string{bad}))
	b.waitJS(`document.querySelector('#f-hook-name').value === 'badimport'`)
	b.click(`form.editor button[type="submit"]`)
	b.waitJSFor(`(document.querySelector('.hook-result')?.textContent ?? '').includes('Not installed')`, 3*time.Minute)
	b.shot("hooks-rejected")
	b.checkConsole()
}

// otherScreens visits the remaining screens and saves the settings.
func otherScreens(t *testing.T, s *site, b *browser) {
	b.t = t
	for _, sc := range []struct{ path, ready, name string }{
		{"/cp/entries/blog", `main table tbody tr`, "entries-list"},
		{"/cp/entries/blog?status=draft&sort=title", `main table tbody tr`, "entries-drafts"},
		{"/cp/globals", `main .cards a`, "globals"},
		{"/cp/navigation", `main .cards a`, "navigation-list"},
		{"/cp/forms", `main h1`, "forms"},
		{"/cp/media", `main h1`, "assets"},
		{"/cp/roles", `main table`, "roles"},
		{"/cp/taxonomies/tags", `main table`, "terms"},
		{"/cp/taxonomies/tags/news", `#f-description`, "term"},
		{"/cp/settings", `#f-site_name`, "settings"},
	} {
		b.run(chromedp.Navigate(s.url+sc.path), chromedp.WaitVisible(chromedp.CSS(sc.ready)))
		b.shot(sc.name)
	}
	// "View on site" opens the published entry's public address.
	b.run(chromedp.Navigate(s.url+"/cp/entries/blog/welcome-to-cms"), chromedp.WaitVisible(chromedp.CSS(`a.view-site`)))
	var welcome struct{ Data struct{ URL string } }
	newAPIClient(t, s).do("GET", "/api/entries/blog/welcome-to-cms", nil, &welcome)
	if href := eval[string](b, `document.querySelector('a.view-site').getAttribute('href')`); href == "" || href != welcome.Data.URL {
		t.Errorf("View on site links to %q, want the entry's url %q", href, welcome.Data.URL)
	}

	// Bulk actions: publish the two drafts of the blog at once.
	b.run(chromedp.Navigate(s.url+"/cp/entries/blog?status=draft"), chromedp.WaitVisible(chromedp.CSS(`main table tbody tr`)))
	b.click(`main thead input[type="checkbox"]`)
	b.click(`.bulk button:nth-child(1)`)
	b.waitText(`main .notice`, "Published 2 of 2.")
	for _, slug := range []string{"draft-ideas", "draft-roadmap"} {
		if st := readEntry(t, s, "blog", slug)["status"]; st != "published" {
			t.Errorf("blog/%s after bulk publish: status %v", slug, st)
		}
	}
	b.shot("entries-bulk-published")

	// Assets: upload, alt text, a new folder, and a move into it.
	pngPath := filepath.Join(t.TempDir(), "library.png")
	writePNG(t, pngPath)
	b.run(chromedp.Navigate(s.url+"/cp/media"), chromedp.WaitReady(chromedp.CSS(`#upload-files`)))
	b.run(chromedp.SetUploadFiles(chromedp.CSS(`#upload-files`), []string{pngPath}))
	b.waitText(`main .notice`, "Uploaded library.png")
	b.click(`.tile[data-path="library.png"]`)
	b.typeIn(`#asset-alt`, "A red diagonal")
	b.click(`.asset-details form:nth-of-type(1) button`)
	b.waitText(`.asset-details .notice`, "Alt text saved.")
	b.shot("asset-details")
	b.typeIn(`#new-folder`, "pictures")
	b.click(`.upload form button`)
	b.waitText(`main .notice`, "Created the folder pictures")
	b.click(`.tile[data-path="library.png"]`)
	b.setValue(`#asset-to`, "pictures/library.png")
	b.click(`.asset-details form:nth-of-type(2) button`)
	b.waitText(`main .notice`, "Moved to pictures/library.png")
	if _, err := os.Stat(filepath.Join(s.dir, "public", "assets", "pictures", "library.png")); err != nil {
		t.Errorf("moved asset: %v", err)
	}
	b.shot("assets-after-move")

	// A form submission: listed, opened, deleted.
	sub := submitForm(t, s)
	b.run(chromedp.Navigate(s.url+"/cp/forms/contact"), chromedp.WaitVisible(chromedp.CSS(`main table a`)))
	b.shot("form-submissions")
	b.click(`main table a`)
	b.waitText(`main .facts`, "Browser Tester")
	b.shot("form-submission")
	b.expectDialog("Delete this submission")
	b.click(`main button.danger`)
	b.waitJS(`location.pathname.endsWith('/cp/forms/contact') && document.querySelector('main h1')`)
	if _, err := os.Stat(sub); err == nil {
		t.Errorf("deleted submission %s is still on disk", sub)
	}

	// A term created in its blueprint form.
	b.run(chromedp.Navigate(s.url+"/cp/taxonomies/tags/_new"), chromedp.WaitVisible(chromedp.CSS(`#f-title`)))
	b.typeIn(`#f-title`, "How To")
	b.typeIn(`#f-description`, "Step by step.")
	b.click(`form.editor button[type="submit"]`)
	b.waitJS(`location.pathname.endsWith('/taxonomies/tags/how-to') && document.querySelector('main h1')?.textContent === 'How To'`)
	if raw, err := os.ReadFile(filepath.Join(s.dir, "content", "taxonomies", "tags", "how-to.yaml")); err != nil || !strings.Contains(string(raw), "Step by step.") {
		t.Errorf("term file: %v\n%s", err, raw)
	}
	b.run(chromedp.Navigate(s.url+"/cp/settings"), chromedp.WaitVisible(chromedp.CSS(`#f-site_name`)))
	b.setValue(`#f-site_name`, "Browser Test Site")
	b.click(`form.editor button[type="submit"]`)
	b.waitText(`form.editor .notice`, "Saved.")
	if raw, err := os.ReadFile(filepath.Join(s.dir, "content", "settings.yaml")); err != nil || !strings.Contains(string(raw), "Browser Test Site") {
		t.Errorf("settings file: %v\n%s", err, raw)
	}
	b.checkConsole()
}

// phoneWidth shows the main screens 390 px wide: nothing may be wider than the screen.
func phoneWidth(t *testing.T, s *site, b *browser) {
	b.t = t
	b.run(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	defer b.run(chromedp.EmulateViewport(1280, 900))
	for _, sc := range []struct{ path, ready, name string }{
		{"/cp", `main .cards`, "phone-dashboard"},
		{"/cp/entries/kitchen/kitchen-sink", `[data-field="subtitle"] input`, "phone-entry"},
		{"/cp/entries/blog", `main table`, "phone-entries"},
		{"/cp/navigation/main", `.nav-label`, "phone-navigation"},
		{"/cp/tokens", `#f-name`, "phone-tokens"},
		{"/cp/seo/not-found", `main h1`, "phone-seo-not-found"},
		{"/cp/seo/redirects/_new", `#f-source`, "phone-seo-redirect"},
	} {
		b.run(chromedp.Navigate(s.url+sc.path), chromedp.WaitVisible(chromedp.CSS(sc.ready)))
		if w := eval[float64](b, `document.documentElement.scrollWidth`); w > 390 {
			t.Errorf("%s is %v px wide on a 390 px screen", sc.path, w)
		}
		b.shot(sc.name)
	}
	// The sections are one Menu button away.
	b.click(`#menu-toggle`)
	b.click(`#sidebar a[href$="/cp/globals"]`)
	b.run(chromedp.WaitVisible(chromedp.CSS(`main .cards a`)))
	if eval[bool](b, `getComputedStyle(document.getElementById('sidebar')).display !== 'none'`) {
		t.Error("the phone menu stays open after choosing a section")
	}
	b.checkConsole()
}

// accountAndSignOut changes the password on the account page, signs out, and signs in with it.
func accountAndSignOut(t *testing.T, s *site, b *browser) {
	b.t = t
	b.run(chromedp.Navigate(s.url + "/cp/account"))
	b.typeIn(`#f-current-password`, adminPassword)
	b.typeIn(`#f-new-password`, "a brand new passphrase")
	b.click(`form.editor:nth-of-type(2) button[type="submit"]`)
	b.waitText(`form.editor:nth-of-type(2) .notice`, "Password changed.")
	b.shot("account")
	b.click(`#logout`)
	b.run(chromedp.WaitVisible(chromedp.CSS(`#email`)))
	b.signInAs(s, adminEmail, "a brand new passphrase")
	b.waitJS(`document.querySelector('main h1')?.textContent.startsWith('Welcome')`)
	b.click(`#logout`)
	b.run(chromedp.WaitVisible(chromedp.CSS(`#email`)))
	b.checkConsole()
}

// submitForm posts the starter site's contact form as a visitor and returns the stored file.
func submitForm(t *testing.T, s *site) string {
	t.Helper()
	dir := filepath.Join(s.dir, "content", "forms", "contact")
	before, _ := os.ReadDir(dir)
	c := &apiClient{t: t, base: s.url}
	c.do("POST", "/api/forms/contact/submit", map[string]any{"name": "Browser Tester", "email": "tester@example.com", "topic": "support", "message": "Hello from the browser tests."}, nil)
	after, err := os.ReadDir(dir)
	if err != nil || len(after) != len(before)+1 {
		t.Fatalf("no stored submission in %s: %v", dir, err)
	}
	for _, e := range after {
		if !slices.ContainsFunc(before, func(b os.DirEntry) bool { return b.Name() == e.Name() }) {
			return filepath.Join(dir, e.Name())
		}
	}
	t.Fatal("stored submission not found")
	return ""
}

// readEntry parses an entry file and returns its custom fields and title as plain values.
func readEntry(t *testing.T, s *site, collection, slug string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(s.dir, "content", "collections", collection, slug+".md"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := entryfile.Parse(collection, slug, raw)
	if err != nil {
		t.Fatal(err)
	}
	out := e.Data.Plain()
	out["title"] = e.Title
	out["status"] = e.Status
	return out
}

// norm passes a value through JSON so numbers and maps compare alike.
func norm(v any) any {
	b, _ := json.Marshal(v)
	var out any
	json.Unmarshal(b, &out)
	return out
}

func writePNG(t *testing.T, p string) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for i := range 16 {
		img.Set(i, i, color.RGBA{200, 40, 40, 255})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
