package web

import (
	"net/http"

	"cms/content"
)

// BlueprintSource is what [WriteBlueprint] reads: a store's blueprints and fieldsets.
type BlueprintSource interface {
	Blueprint(kind, handle string) (*content.Blueprint, error)
	Fieldsets() []*content.Fieldset
}

// blueprintJSON is an editor's view of a blueprint: the blueprint (fieldset imports resolved;
// null when its file is missing, so values are not validated) and the fieldsets its replicator,
// blocks and grid fields offer as sets, by handle.
type blueprintJSON struct {
	Data      *content.Blueprint           `json:"data"`
	Fieldsets map[string]*content.Fieldset `json:"fieldsets"`
}

// WriteBlueprint answers the Control Panel's blueprint helper routes (entries, globals,
// navigation, terms) with the blueprint kind/handle names. The caller checks permissions first.
func WriteBlueprint(w http.ResponseWriter, src BlueprintSource, kind, handle string) error {
	out := blueprintJSON{Fieldsets: map[string]*content.Fieldset{}}
	bp, err := src.Blueprint(kind, handle)
	if err != nil && !content.IsNotFound(err) {
		return err
	}
	if err == nil {
		out.Data = bp
		out.Fieldsets = content.SetFieldsets(bp.Fields(), src.Fieldsets())
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}
