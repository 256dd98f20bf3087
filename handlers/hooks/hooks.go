// Package hooks manages the WebAssembly validation hooks of a site and runs them for the rule
// engine:
//
//	GET    /api/hooks          settings:view  installed hooks with sha256, size, uploader and time
//	GET    /api/hooks/{name}   settings:view  one hook's metadata
//	PUT    /api/hooks/{name}   settings:edit  upload a module (raw body, Content-Type: application/wasm)
//	DELETE /api/hooks/{name}   settings:edit  uninstall
//
// An upload is checked before anything is stored: larger than MaxModuleBytes is 413; then
// [wasmhooks.Host.Check] refuses a module over the limits on its structure (locals, nesting,
// estimated compile cost and others, see docs/hooks.md) before compiling it, compiles it,
// checks its imports and exports against hook ABI v1 and makes a smoke call under the time
// limit. A module that fails gets 422 HOOK_REJECTED with the reason (and the module's stderr,
// if it wrote any, or the limit it exceeds, in the details) and is not stored. A good module is stored
// as resources/hooks/{name}.wasm with {name}.meta.yaml, and answered 201 (200 when it replaced
// a hook of the same name) with its metadata.
//
// The group holds HTTP only: checking and storing a module is [hookrun.Install], and what forms
// and entries validate with is [hookrun.Runner].
package hooks

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"cms/content"
	"cms/handlers/web"
	"cms/wasmhooks"
	"cms/wasmhooks/hookrun"
)

// Store keeps installed hooks.
type Store interface {
	// Hooks lists installed hooks sorted by name.
	Hooks() ([]content.Hook, error)
	// HookMeta returns a NotFound error when no hook of that name is installed.
	HookMeta(name string) (*content.Hook, error)
	// PutHook installs or replaces a hook and reports whether it replaced one.
	PutHook(h content.Hook, wasm []byte) (bool, error)
	// DeleteHook returns a NotFound error when no hook of that name is installed.
	DeleteHook(name string) error
}

// Checker vets an uploaded module against hook ABI v1.
type Checker interface {
	// Check returns an Invalid error saying what is wrong with a module that fails.
	Check(ctx context.Context, wasm []byte) (wasmhooks.Info, error)
}

// Deps are the inputs of the group.
type Deps struct {
	Store Store
	// As returns the store whose writes are attributed to an editor (git sync); nil = Store.
	As   func(content.Editor) Store
	Host Checker
	// Auth authenticates every endpoint; nil makes them answer 401.
	Auth web.Authenticator
	// MaxModuleBytes bounds an upload; 0 means 8 MiB.
	MaxModuleBytes int64
	Log            *slog.Logger
	Now            func() time.Time
}

// DefaultMaxModuleBytes is the upload limit of hook ABI v1.
const DefaultMaxModuleBytes = 8 << 20

// CodeRejected is the code of the 422 for a module that fails the checks.
const CodeRejected = hookrun.CodeRejected

type api struct{ Deps }

// Prefixes are the path prefixes the group serves.
func Prefixes() []string { return []string{"/api/hooks", "/api/hooks/"} }

// New builds the group's handler.
func New(d Deps) (http.Handler, error) {
	var errs []error
	if d.Store == nil {
		errs = append(errs, errors.New("hooks: Store is required"))
	}
	if d.Host == nil {
		errs = append(errs, errors.New("hooks: Host is required"))
	}
	if d.MaxModuleBytes < 0 {
		errs = append(errs, errors.New("hooks: MaxModuleBytes must not be negative"))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if d.MaxModuleBytes == 0 {
		d.MaxModuleBytes = DefaultMaxModuleBytes
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	a := &api{Deps: d}
	rt := web.NewRouter()
	rt.HandleFunc("GET /api/hooks", a.list)
	rt.HandleFunc("GET /api/hooks/{name}", a.get)
	rt.HandleFunc("PUT /api/hooks/{name}", a.put)
	rt.HandleFunc("DELETE /api/hooks/{name}", a.delete)
	rt.NotFound("/api/hooks/")
	return rt, nil
}
