package main

import (
	"context"
	"errors"
	"fmt"

	"gopkg.in/yaml.v3"

	"cms/content"
	"cms/content/fsstore"
	"cms/content/navtree"
	"cms/content/query"
	"cms/content/seo"
	"cms/runtime/config"
)

// A checkFunc adds problems found in an open store (blueprint rules, hooks, ...).
type checkFunc func(st *fsstore.Store, cfg config.Config) []fsstore.Problem

// siteChecks are the checks `cms check` runs beyond the store's own load problems.
func siteChecks() []checkFunc {
	return []checkFunc{checkBlueprints, checkFormsAndHooks, checkNavigation, checkBlueprintLists, checkSEOKeys, checkRedirects}
}

func cmdCheck(ctx context.Context, e env, args []string) error {
	fl := newFlags("check", e)
	site := fl.String("site", "", "site folder (default $CMS_SITE_DIR or .)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	cfg, warns, err := config.Load(*site, e.getenv)
	if err != nil {
		fmt.Fprintln(e.stdout, err)
		return exitError(1)
	}
	if err := requireSite(cfg, "--site"); err != nil {
		return err
	}
	for _, w := range warns {
		fmt.Fprintln(e.stdout, "warning:", w)
	}
	st, err := openStore(withIndexProgress(ctx, e), cfg, true, false)
	if err != nil {
		return err
	}
	defer st.Close()
	problems := st.Problems()
	for _, c := range siteChecks() {
		problems = append(problems, c(st, cfg)...)
	}
	for _, p := range problems {
		fmt.Fprintf(e.stdout, "%s: %s\n", p.File, p.Message)
	}
	if len(problems) > 0 {
		fmt.Fprintf(e.stdout, "%d problem(s) found in %s\n", len(problems), cfg.SiteDir)
		return exitError(1)
	}
	fmt.Fprintf(e.stdout, "%s: no problems found (%d collections)\n", cfg.SiteDir, len(st.Collections()))
	return nil
}

// checkNavigation reports navigation trees that do not load (GET answers 500) and, with file and
// line, items edited by hand to have both a url and an entry: the API refuses those, and they are
// served with the entry's URL (navtree.URLAndEntry).
func checkNavigation(st *fsstore.Store, _ config.Config) []fsstore.Problem {
	var out []fsstore.Problem
	for _, def := range st.NavigationDefs() { // every tree with a data file or a definition
		h := def.Handle
		file := st.NavigationFile(h)
		tree, err := st.Navigation(h)
		if err != nil {
			var ce *content.Error
			if errors.As(err, &ce) && ce.Err != nil {
				err = ce.Err // the parser's "line N: ..." without the store's prefix
			}
			out = append(out, fsstore.Problem{File: file, Message: err.Error()})
			continue
		}
		paths := navtree.URLAndEntry(tree.Items)
		if len(paths) == 0 {
			continue
		}
		var lines map[string]int
		if raw, err := st.Root().ReadFile(file); err == nil {
			lines = navItemLines(raw)
		}
		for _, p := range paths {
			msg := p + " has both url and entry; an item links to one or the other: remove one (meanwhile the entry's URL is served)"
			if n := lines[p]; n > 0 {
				msg = fmt.Sprintf("line %d: %s", n, msg)
			}
			out = append(out, fsstore.Problem{File: file, Message: msg})
		}
	}
	return out
}

// navItemLines maps the path of each item of a navigation file (items[2].children[1]) to the line
// it starts on. Items reached through YAML aliases are left out, so a file of aliases cannot make
// the walk exponential; they are reported without a line.
func navItemLines(raw []byte) map[string]int {
	var doc yaml.Node
	if yaml.Unmarshal(raw, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	lines := map[string]int{}
	var walk func(n *yaml.Node, at string)
	walk = func(n *yaml.Node, at string) {
		if n == nil || n.Kind != yaml.SequenceNode {
			return
		}
		for i, it := range n.Content {
			p := fmt.Sprintf("%s[%d]", at, i)
			lines[p] = it.Line
			walk(yamlValue(it, "children"), p+".children")
		}
	}
	walk(yamlValue(doc.Content[0], "items"), "items")
	return lines
}

// yamlValue returns the value of key in a mapping node, or nil.
func yamlValue(m *yaml.Node, key string) *yaml.Node {
	if m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// checkSEOKeys reports entries and terms whose `seo:` key is not valid SeoValues: the site
// renders them without it (the record layer is skipped), which an author would not notice. The
// SEO documents under resources/seo are the store's own problems.
func checkSEOKeys(st *fsstore.Store, _ config.Config) []fsstore.Problem {
	var out []fsstore.Problem
	report := func(file string, data *content.Map) {
		if v, ok := data.Get("seo"); ok {
			if _, err := seo.ParseValues(v); err != nil {
				out = append(out, fsstore.Problem{File: file, Message: err.Error()})
			}
		}
	}
	for _, c := range st.Collections() {
		entries, _, err := st.Entries(c.Handle, query.Query{})
		if err != nil {
			continue // the store reports collections that do not load
		}
		for _, e := range entries {
			report(st.ContentPath("collections", c.Handle, e.Slug+".md"), e.Data)
		}
	}
	for _, tax := range st.Taxonomies() {
		terms, err := st.Terms(tax.Handle)
		if err != nil {
			continue
		}
		for _, t := range terms {
			report(st.ContentPath("taxonomies", tax.Handle, t.Slug+".yaml"), t.Data)
		}
	}
	return out
}
