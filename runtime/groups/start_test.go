package groups_test

import (
	"log/slog"
	"net/http"
	"testing"

	"cms/runtime/config"
	"cms/runtime/groups"
	"cms/runtime/wire"
)

// startServices loads the configuration of the site in dir (environment from env, which may be
// nil), lets edit change it (may be nil) and starts its services, closed when the test ends.
func startServices(t *testing.T, dir string, env map[string]string, edit func(*config.Config)) *wire.Services {
	t.Helper()
	cfg, _, err := config.Load(dir, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(&cfg)
	}
	s, err := wire.NewServices(t.Context(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// startSite starts the services of the site in dir and mounts every group, as cms serve does.
func startSite(t *testing.T, dir string, env map[string]string) (*wire.Services, http.Handler) {
	t.Helper()
	s := startServices(t, dir, env, nil)
	mux, err := groups.Mux(s)
	if err != nil {
		t.Fatal(err)
	}
	return s, mux
}
