package entries_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	"cms/content/contenttest"
	"cms/handlers/entries"
	"cms/handlers/web/webtest"
)

// TestMadoriSite reads every entry of the shared Madori fixture site and saves each one back
// unchanged: every save passes its blueprint, and nothing but updatedAt and the hash changes.
// It skips when $CMS_FIXTURES is unset.
func TestMadoriSite(t *testing.T) {
	t.Parallel()
	dir := contenttest.CopyFixture(t, "madori-site")
	st := contenttest.OpenStore(t, dir)
	h, err := entries.New(entries.Deps{Store: st, Auth: newAuth(t)})
	if err != nil {
		t.Fatal(err)
	}
	var colls struct {
		Data []struct{ Handle string }
	}
	webtest.DecodeJSON(t, webtest.Do(t, h, webtest.Request{Path: "/api/collections", Token: tokAdmin}), &colls)
	if len(colls.Data) == 0 {
		t.Fatal("no collections in the fixture")
	}
	seen := 0
	for _, c := range colls.Data {
		var l listBody
		webtest.DecodeJSON(t, webtest.Do(t, h, webtest.Request{Path: "/api/entries/" + c.Handle + "?limit=500", Token: tokAdmin}), &l)
		if l.Meta.Total != len(l.Data) {
			t.Errorf("%s: total %d but %d entries listed", c.Handle, l.Meta.Total, len(l.Data))
		}
		for _, e := range l.Data {
			seen++
			path := "/api/entries/" + c.Handle + "/" + e.Slug
			before := decodeEntry(t, webtest.Do(t, h, webtest.Request{Path: path, Token: tokAdmin}))
			w := webtest.Do(t, h, webtest.Request{Method: "PUT", Path: path, Token: tokAdmin,
				Body: map[string]any{"contentHash": before.ContentHash, "content": before.Content}})
			if w.Code != http.StatusOK {
				t.Errorf("%s: save unchanged: status %d; body %s", path, w.Code, w.Body)
				continue
			}
			after := decodeEntry(t, webtest.Do(t, h, webtest.Request{Path: path, Token: tokAdmin}))
			b1, _ := json.Marshal(before.Data)
			b2, _ := json.Marshal(after.Data)
			if string(b1) != string(b2) {
				t.Errorf("%s: data changed on save:\n%s\n%s", path, b1, b2)
			}
			before.UpdatedAt, after.UpdatedAt, before.ContentHash, after.ContentHash = "", "", "", ""
			before.Data, after.Data = nil, nil
			if !reflect.DeepEqual(before, after) {
				t.Errorf("%s: entry changed on save:\n%+v\n%+v", path, before, after)
			}
		}
	}
	if seen == 0 {
		t.Error("no entries in the fixture")
	}
}
