package entries_test

import (
	"context"
	"sync"
	"testing"

	"cms/content/contenttest"
	"cms/content/validate"
	"cms/handlers/entries"
	"cms/handlers/web/webtest"
)

const hookSite = `
-- resources/collections/codes.yaml --
title: Codes
-- resources/blueprints/collections/codes.yaml --
fields:
  - handle: code
    field: {type: text, validate: ["hook:check-code:strict"]}
`

// hookFunc is a HookRunner made of a function.
type hookFunc func(ctx context.Context, call validate.HookCall) (validate.HookResult, error)

func (f hookFunc) RunHook(ctx context.Context, call validate.HookCall) (validate.HookResult, error) {
	return f(ctx, call)
}

func TestHooks(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var calls []validate.HookCall
	runner := hookFunc(func(_ context.Context, call validate.HookCall) (validate.HookResult, error) {
		mu.Lock()
		calls = append(calls, call)
		mu.Unlock()
		if call.Value == "good" {
			return validate.HookResult{Valid: true}, nil
		}
		return validate.HookResult{Valid: false, Message: "Code is not on the list"}, nil
	})
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, hookSite))
	with, err := entries.New(entries.Deps{Store: st, Auth: newAuth(t), Hooks: runner})
	if err != nil {
		t.Fatal(err)
	}
	without, err := entries.New(entries.Deps{Store: st, Auth: newAuth(t)})
	if err != nil {
		t.Fatal(err)
	}

	w := webtest.Do(t, with, webtest.Request{Method: "POST", Path: "/api/entries/codes", Token: tokAdmin, Body: map[string]any{"title": "Bad", "data": map[string]any{"code": "bad"}}})
	checkError(t, w, errCase{422, "VALIDATION_ERROR", `Entry data validation failed for blueprint "codes"`, map[string][]string{"code": {"Code is not on the list"}}})

	w = webtest.Do(t, with, webtest.Request{Method: "POST", Path: "/api/entries/codes", Token: tokAdmin, Body: map[string]any{"title": "Good", "data": map[string]any{"code": "good"}}})
	if w.Code != 201 {
		t.Fatalf("status = %d; body %s", w.Code, w.Body)
	}
	mu.Lock()
	last := calls[len(calls)-1]
	mu.Unlock()
	if last.Name != "check-code" || last.Arg != "strict" || last.Form != "codes" || last.Field != "code" || last.Data.Value("title") != "Good" {
		t.Errorf("hook call = %+v", last)
	}

	// Without a runner nothing the editor does can fix the save: 503, not 422.
	w = webtest.Do(t, without, webtest.Request{Method: "POST", Path: "/api/entries/codes", Token: tokAdmin, Body: map[string]any{"title": "No runner", "data": map[string]any{"code": "good"}}})
	checkError(t, w, errCase{503, validate.CodeHookUnavailable, "", nil})
	// A field without a value runs no hook.
	w = webtest.Do(t, without, webtest.Request{Method: "POST", Path: "/api/entries/codes", Token: tokAdmin, Body: map[string]any{"title": "No code"}})
	if w.Code != 201 {
		t.Errorf("status = %d; body %s", w.Code, w.Body)
	}
}
