// Package hookhost builds the process's one WASM hook host and the hook runner over it, which
// the hooks, forms and entries groups share. It is apart from the hooks group so the forms and
// entries groups (and their Lambda functions) do not link the hooks upload API.
package hookhost

import (
	"context"

	"cms/content/fsstore"
	"cms/runtime/config"
	"cms/runtime/wire"
	"cms/wasmhooks"
	"cms/wasmhooks/hookrun"
)

var (
	_ hookrun.Modules   = (*fsstore.Store)(nil)
	_ hookrun.Store     = (*fsstore.Store)(nil)
	_ hookrun.Checker   = (*wasmhooks.Host)(nil)
	_ hookrun.Validator = (*wasmhooks.Host)(nil)
)

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
func Runner(s *wire.Services) (*hookrun.Runner, error) {
	return wire.Shared(s, "hookrun.Runner", func() (*hookrun.Runner, error) {
		h, err := Host(s)
		if err != nil {
			return nil, err
		}
		return hookrun.NewRunner(s.Store, h)
	})
}
