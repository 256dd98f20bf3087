package web_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"cms/content/query"
	"cms/handlers/web"
)

// ListQuery is the one reader of entry list parameters (the CP and the public API): the rules
// of query.Parse, each parameter at most once, every refusal a 400.
func TestListQuery(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, rawQuery        string
		wantLimit, wantOffset int
		wantSort              string
		wantErr               string
	}{
		{name: "defaults", wantLimit: query.DefaultLimit},
		{name: "all four", rawQuery: "limit=5&offset=10&sort=-title&filter=%7B%22a%22%3A1%7D", wantLimit: 5, wantOffset: 10, wantSort: "title"},
		{name: "other parameters are the caller's", rawQuery: "status=draft&colour=blue", wantLimit: query.DefaultLimit},
		{name: "a repeated parameter", rawQuery: "sort=a&sort=b", wantErr: "sort may be given only once"},
		{name: "a repeated empty parameter", rawQuery: "limit=&limit=", wantErr: "limit may be given only once"},
		{name: "limit zero", rawQuery: "limit=0", wantErr: `limit must be a whole number from 1 to 1000, got "0"`},
		{name: "offset too large", rawQuery: "offset=1000001", wantErr: `offset must be a whole number from 0 to 1000000, got "1000001"`},
		{name: "filter not JSON", rawQuery: "filter=%7Bx", wantErr: "filter is not valid JSON"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			q, err := web.ListQuery(httptest.NewRequest("GET", "/?"+tt.rawQuery, nil))
			if tt.wantErr != "" {
				we, ok := errors.AsType[*web.Error](err)
				if !ok || we.Status != http.StatusBadRequest || we.Code != "BAD_REQUEST" || len(we.Message) < len(tt.wantErr) || we.Message[:len(tt.wantErr)] != tt.wantErr {
					t.Errorf("err = %v, want a 400 starting %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || q.Limit != tt.wantLimit || q.Offset != tt.wantOffset {
				t.Fatalf("got limit %d offset %d, %v", q.Limit, q.Offset, err)
			}
			if tt.wantSort != "" && (len(q.Sort) != 1 || q.Sort[0].Field != tt.wantSort || !q.Sort[0].Desc) {
				t.Errorf("sort = %+v", q.Sort)
			}
			if q.Status != "" {
				t.Errorf("status = %q; status is the caller's", q.Status)
			}
		})
	}
}
