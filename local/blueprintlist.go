package main

import (
	"errors"
	"fmt"
	"io/fs"

	"cms/content"
	"cms/content/frontmatter"
	"cms/content/fsstore"
	"cms/runtime/config"
)

// checkBlueprintLists reports collections whose blueprint: is a list, the old format of the
// system we follow. The store reads one blueprint handle, so such a collection falls back to the
// blueprint named after it, or to none, and its entries are not validated as the file says.
func checkBlueprintLists(st *fsstore.Store, _ config.Config) []fsstore.Problem {
	var out []fsstore.Problem
	for _, c := range st.Collections() {
		for _, ext := range []string{".yaml", ".yml"} {
			file := st.ResourcePath("collections", c.Handle+ext)
			raw, err := st.Root().ReadFile(file)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				break // the store reports files it cannot read
			}
			m, err := frontmatter.ParseYAMLMap(raw, 1)
			if err != nil {
				break
			}
			if _, list := m.Value("blueprint").([]any); list {
				effect := "its entries are not validated"
				if _, err := st.Blueprint(content.BlueprintCollections, c.Blueprint); err == nil {
					effect = fmt.Sprintf("its entries are validated against blueprint %q only", c.Blueprint)
				}
				out = append(out, fsstore.Problem{File: file, Message: fmt.Sprintf(
					"blueprint is a list (the old format), which is not supported: %s; name one blueprint (blueprint: <handle>)", effect)})
			}
			break
		}
	}
	return out
}
