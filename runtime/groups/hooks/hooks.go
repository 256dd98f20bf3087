// Package hooks wires the validation hooks group (handlers/hooks), a writer. It checks uploads
// on the process's shared WASM hook host ([hookhost.Host]).
package hooks

import (
	"cms/content"
	"net/http"

	"cms/content/fsstore"
	"cms/handlers/hooks"
	"cms/runtime/config"
	"cms/runtime/hookhost"
	"cms/runtime/wire"
	"cms/wasmhooks"
)

var (
	_ hooks.Store   = (*fsstore.Store)(nil)
	_ hooks.Checker = (*wasmhooks.Host)(nil)
)

// Group describes the hooks group for the runners.
func Group() wire.Group {
	return wire.Group{Name: "hooks", Prefixes: Prefixes, Writer: true, Build: Build}
}

// Prefixes are the paths the group serves.
func Prefixes(config.Config) []string { return hooks.Prefixes() }

// Build builds the hooks group.
func Build(s *wire.Services) (http.Handler, error) {
	host, err := hookhost.Host(s)
	if err != nil {
		return nil, err
	}
	return hooks.New(hooks.Deps{
		Store:          s.Store,
		As:             func(ed content.Editor) hooks.Store { return s.Store.As(ed) },
		Host:           host,
		Auth:           s.Auth,
		MaxModuleBytes: s.Config.Hooks.MaxModuleBytes,
		Log:            s.Log.With("group", "hooks"),
		Now:            s.Now,
	})
}
