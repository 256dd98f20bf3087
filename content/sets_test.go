package content_test

import (
	"slices"
	"testing"

	"cms/content"
)

// TestSetFieldsets: a replicator's sets, a blocks field's is_block fieldsets when it names none,
// and the sets of a set's own replicator, each once; unknown names are left out.
func TestSetFieldsets(t *testing.T) {
	t.Parallel()
	opts := func(sets ...any) *content.Map {
		m := content.NewMap(1)
		m.Set("sets", sets)
		return m
	}
	all := []*content.Fieldset{
		{Handle: "cta"},
		{Handle: "gallery", IsBlock: true},
		{Handle: "row", Fields: []content.Field{{Handle: "cells", Type: "replicator", Options: opts("cta", "text")}}},
		{Handle: "text", IsBlock: true},
		{Handle: "unused"},
	}
	got := content.SetFieldsets([]content.Field{
		{Handle: "title", Type: "text"},
		{Handle: "body", Type: "replicator", Options: opts("row", "missing")},
		{Handle: "page", Type: "blocks"},
	}, all)
	var names []string
	for k := range got {
		names = append(names, k)
	}
	slices.Sort(names)
	if want := []string{"cta", "gallery", "row", "text"}; !slices.Equal(names, want) {
		t.Errorf("set fieldsets = %v, want %v", names, want)
	}
}
