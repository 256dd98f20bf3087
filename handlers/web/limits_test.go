package web_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"cms/content"
	"cms/handlers/web"
	"cms/handlers/web/webtest"
)

// Every JSON body that DecodeJSON reads, into a Map or into a struct, is held to the nesting
// limit the stored documents share, before it is decoded.
func TestDecodeJSONNestingLimit(t *testing.T) {
	t.Parallel()
	into := map[string]func() any{
		"map":    func() any { return content.NewMap(0) },
		"struct": func() any { return &struct{ X any }{} },
	}
	for name, v := range into {
		h := web.HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
			if err := web.DecodeJSON(w, r, 1<<20, v()); err != nil {
				return err
			}
			w.WriteHeader(http.StatusNoContent)
			return nil
		})
		at := `{"x":` + webtest.Nested(content.MaxNesting-1) + `}`
		if w := webtest.Do(t, h, webtest.Request{Method: "POST", Path: "/", Body: at}); w.Code != http.StatusNoContent {
			t.Errorf("%s: a body at the limit = %d %.300s", name, w.Code, w.Body)
		}
		over := `{"x":` + webtest.Nested(content.MaxNesting) + `}`
		w := webtest.Do(t, h, webtest.Request{Method: "POST", Path: "/", Body: over})
		webtest.WantError(t, w, http.StatusUnprocessableEntity, content.CodeNestingTooDeep)
		var e struct {
			Error struct {
				Message string
				Limit   int
				Details struct{ Limit int }
			}
		}
		if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error.Limit != content.MaxNesting || e.Error.Details.Limit != content.MaxNesting ||
			e.Error.Message != "Objects and lists are nested more than 100 levels deep" {
			t.Errorf("%s: envelope = %s", name, w.Body)
		}
	}
}
