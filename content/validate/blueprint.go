package validate

import (
	"context"
	"fmt"

	"cms/content"
)

// Blueprints finds a blueprint by kind and handle, or returns a NotFound error (the store).
type Blueprints interface {
	Blueprint(kind, handle string) (*content.Blueprint, error)
}

// FindBlueprint returns the blueprint a document names, or nil when it names none ("") or no
// such blueprint exists: entries, globals, taxonomy terms and navigation items without a
// blueprint are stored unchecked. (A form cannot do without one; see the forms group.) Any other
// error is returned.
func FindBlueprint(bps Blueprints, kind, handle string) (*content.Blueprint, error) {
	if handle == "" {
		return nil, nil
	}
	bp, err := bps.Blueprint(kind, handle)
	if content.IsNotFound(err) {
		return nil, nil
	}
	return bp, err
}

// AgainstBlueprint checks values against the blueprint a document names, if there is one
// ([FindBlueprint]), with [Values]. It returns the messages and the blueprint, nil when there is
// none (and then no messages).
func AgainstBlueprint(ctx context.Context, bps Blueprints, kind, handle string, values *content.Map, opts Options) (content.FieldErrors, *content.Blueprint, error) {
	bp, err := FindBlueprint(bps, kind, handle)
	if err != nil || bp == nil {
		return content.FieldErrors{}, nil, err
	}
	fe, err := Values(ctx, bp.Fields(), values, opts)
	return fe, bp, err
}

// BlueprintError returns the Invalid error of values of what ("Entry data", "Global data", ...)
// that fail blueprint bp with the messages fe, or nil when there are none.
func BlueprintError(op, what string, bp *content.Blueprint, fe content.FieldErrors) error {
	if len(fe) == 0 {
		return nil
	}
	handle := ""
	if bp != nil {
		handle = bp.Handle
	}
	return content.InvalidFields(op, fmt.Sprintf("%s validation failed for blueprint %q", what, handle), fe)
}
