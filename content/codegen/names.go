package codegen

import (
	"fmt"
	"slices"
	"strings"

	"cms/content/gqlname"
)

// checkNames fails when two handles give the same exported TypeScript or Go name ("blog-post"
// and "blog_post" are both BlogPost): the output would not compile, and guessing which one to
// rename is the site's decision.
func (s *Site) checkNames() error {
	owner := map[string]string{}
	for _, n := range []string{"EntryMeta", "Entry", "PublicEntry", "EntryList", "NavigationItemBase", "TermBase", "CollectionDataMap",
		"GraphQLListArgs", "GraphQLConfig", "GraphQLErrorItem", "GraphQLError", "FileClient", "QueryError", "FileEntry", "ListParams",
		"ListResult", "FileClientOptions", "CollectionOrder", "FieldSpec", "FieldErrors", "ValidateOptions", "ListMeta", "Set", "Client", "APIError"} {
		owner[n] = "the generated runtime"
	}
	var clashes []string
	claim := func(name, who string) {
		if prev, ok := owner[name]; ok && prev != who {
			clashes = append(clashes, fmt.Sprintf("%s and %s both give the name %s", prev, who, name))
			return
		}
		owner[name] = who
	}
	var all []field
	for _, kind := range BlueprintKinds {
		for _, bp := range s.Blueprints[kind] {
			claim(fieldsTypeName(kind, bp.Handle), fmt.Sprintf("blueprint %s/%s", kind, bp.Handle))
			all = append(all, dataFields(kind, bp)...)
		}
	}
	for _, fs := range s.usedSets(all) {
		claim(setTypeName(fs.Handle), "fieldset "+fs.Handle)
	}
	for _, c := range s.Collections {
		claim(pascal(c.Handle)+"Entry", "collection "+c.Handle)
	}
	for _, g := range s.Globals {
		claim(pascal(g.Handle)+"Global", "global "+g.Handle)
	}
	for _, f := range s.Forms {
		claim(pascal(f.Handle)+"FormValues", "form "+f.Handle)
	}
	for _, n := range s.Navigations {
		claim(pascal(n.Handle)+"NavigationItem", "navigation "+n.Handle)
	}
	for _, t := range s.Taxonomies {
		claim(pascal(t.Handle)+"Term", "taxonomy "+t.Handle)
	}
	for _, gc := range s.gqlCollections() {
		who := "collection " + gc.c.Handle + " (GraphQL)"
		claim(gc.typ+"Result", who)
		claim(gc.typ+"Filter", who)
		claim("get"+gc.typ+"BySlug", who)
		claim("list"+gqlname.TypeName(gc.plural), who)
	}
	goNames := map[string]string{}
	for _, c := range s.Collections {
		n := goName(c.Handle)
		if prev, ok := goNames[n]; ok {
			clashes = append(clashes, fmt.Sprintf("collections %s and %s both give the Go name %s", prev, c.Handle, n))
		}
		goNames[n] = c.Handle
	}
	if len(clashes) == 0 {
		return nil
	}
	slices.Sort(clashes)
	return fmt.Errorf("codegen: names clash (rename one of each pair): %s", strings.Join(slices.Compact(clashes), "; "))
}
