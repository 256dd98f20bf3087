package validate_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"cms/content"
	"cms/content/validate"
)

// blueprints is a store of blueprints by kind/handle; broken names a handle whose lookup fails.
type blueprints struct {
	bps    map[string]*content.Blueprint
	broken string
	asked  []string
}

func (b *blueprints) Blueprint(kind, handle string) (*content.Blueprint, error) {
	b.asked = append(b.asked, kind+"/"+handle)
	if handle == b.broken {
		return nil, errors.New("disk on fire")
	}
	if bp, ok := b.bps[kind+"/"+handle]; ok {
		return bp, nil
	}
	return nil, content.NotFoundf("test", handle, "Blueprint %q not found", handle)
}

// "Validate against the blueprint if there is one", the rule of entries, globals, terms and
// navigation items, written once.
func TestAgainstBlueprint(t *testing.T) {
	t.Parallel()
	titled := &content.Blueprint{Kind: content.BlueprintGlobals, Handle: "site",
		Tabs: []content.Tab{{Handle: "main", Fields: []content.Field{{Handle: "title", Type: "text", Required: true}}}}}
	tests := []struct {
		name      string
		handle    string
		values    *content.Map
		wantBP    bool
		wantErr   bool
		wantAsked int
		wantFE    content.FieldErrors
		wantMsg   string // of BlueprintError, "" for nil
	}{
		{name: "no blueprint named: unchecked, nothing looked up", handle: "", values: mapOf("x", 1)},
		{name: "a blueprint that does not exist: unchecked", handle: "nope", values: mapOf("x", 1), wantAsked: 1},
		{name: "valid values", handle: "site", values: mapOf("title", "Hi"), wantBP: true, wantAsked: 1},
		{name: "invalid values", handle: "site", values: mapOf("x", 1), wantBP: true, wantAsked: 1,
			wantFE: content.FieldErrors{"title": {"This field is required"}}, wantMsg: `Global data validation failed for blueprint "site"`},
		{name: "a failing lookup is an error, not a pass", handle: "broken", values: mapOf("x", 1), wantErr: true, wantAsked: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			store := &blueprints{bps: map[string]*content.Blueprint{"globals/site": titled}, broken: "broken"}
			fe, bp, err := validate.AgainstBlueprint(context.Background(), store, content.BlueprintGlobals, tt.handle, tt.values, validate.Options{})
			if (err != nil) != tt.wantErr || (bp != nil) != tt.wantBP || len(store.asked) != tt.wantAsked {
				t.Fatalf("got bp %v, err %v, lookups %v", bp, err, store.asked)
			}
			if err != nil {
				return
			}
			if fe == nil || len(fe) != len(tt.wantFE) || len(fe) > 0 && !reflect.DeepEqual(fe, tt.wantFE) {
				t.Errorf("messages = %v, want %v", fe, tt.wantFE)
			}
			got := validate.BlueprintError("op", "Global data", bp, fe)
			switch ce, _ := errors.AsType[*content.Error](got); {
			case tt.wantMsg == "" && got != nil:
				t.Errorf("BlueprintError = %v, want nil", got)
			case tt.wantMsg != "" && (ce == nil || ce.Kind != content.Invalid || ce.Message != tt.wantMsg || !reflect.DeepEqual(ce.Fields, map[string][]string(tt.wantFE))):
				t.Errorf("BlueprintError = %#v, want Invalid %q with %v", got, tt.wantMsg, tt.wantFE)
			}
		})
	}
}
