// Package hooks wires the validation hooks group (handlers/hooks), a writer, and builds the
// process's one WASM hook host, which the forms and entries groups share through [Runner].
package hooks

import (
	"context"
	"net/http"

	"cms/content/fsstore"
	"cms/handlers/hooks"
	"cms/runtime/config"
	"cms/runtime/wire"
	"cms/wasmhooks"
)

var (
	_ hooks.Store     = (*fsstore.Store)(nil)
	_ hooks.Modules   = (*fsstore.Store)(nil)
	_ hooks.Checker   = (*wasmhooks.Host)(nil)
	_ hooks.Validator = (*wasmhooks.Host)(nil)
)

// Group describes the hooks group for the runners.
func Group() wire.Group {
	return wire.Group{Name: "hooks", Prefixes: Prefixes, Writer: true, Build: Build}
}

// Prefixes are the paths the group serves.
func Prefixes(config.Config) []string { return hooks.Prefixes() }

// Build builds the hooks group.
func Build(s *wire.Services) (http.Handler, error) {
	host, err := Host(s)
	if err != nil {
		return nil, err
	}
	return hooks.New(hooks.Deps{
		Store:          s.Store,
		Host:           host,
		Auth:           s.Auth,
		MaxModuleBytes: s.Config.Hooks.MaxModuleBytes,
		Log:            s.Log.With("group", "hooks"),
		Now:            s.Now,
	})
}

// Options returns the WASM host options of a configuration.
func Options(c config.Config) wasmhooks.Options {
	return wasmhooks.Options{
		Limits: wasmhooks.Limits{
			MaxModuleBytes:   int(c.Hooks.MaxModuleBytes),
			MemoryLimitPages: uint32(c.Hooks.MemoryMiB) * 16, // 64 KiB pages
			CallTimeout:      c.Hooks.Timeout,
		},
		CacheDir: c.Hooks.CacheDir,
	}
}

// Host returns the process's WASM hook host, creating it on first use. Creating it is cheap:
// the runtime starts when a hook first runs, and compiled code is cached under hooks.cacheDir,
// so a new process (a Lambda cold start) does not compile a module it has seen.
func Host(s *wire.Services) (*wasmhooks.Host, error) {
	return wire.Shared(s, "wasmhooks.Host", func() (*wasmhooks.Host, error) {
		opts := Options(s.Config)
		opts.Log = s.Log.With("component", "wasmhooks")
		h, err := wasmhooks.New(opts)
		if err != nil {
			return nil, err
		}
		s.OnClose(func() error { return h.Close(context.Background()) })
		return h, nil
	})
}

// Runner returns the hook runner over the site's installed hooks and the process's host.
func Runner(s *wire.Services) (*hooks.Runner, error) {
	return wire.Shared(s, "hooks.Runner", func() (*hooks.Runner, error) {
		h, err := Host(s)
		if err != nil {
			return nil, err
		}
		return hooks.NewRunner(s.Store, h)
	})
}
