// Package wire builds the shared services once and each endpoint group from them. It is the only
// code that fills a group's Deps: the local runner mounts every group from Groups, and each Lambda
// main calls one builder directly so that it links only that group.
package wire

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"cms/content/fsstore"
	"cms/content/markdown"
	"cms/handlers/web"
	"cms/runtime/config"
)

// Services are built once per process and shared by every group.
type Services struct {
	Config config.Config
	Log    *slog.Logger
	Store  *fsstore.Store
	// Auth authenticates requests of protected groups (sessions, handlers/auth). Nil until
	// the auth services are built; protected groups then answer 401.
	Auth     web.Authenticator
	Markdown *markdown.Renderer
	Now      func() time.Time
	Started  time.Time

	closers []func() error
}

// Close releases what the services hold (watchers, caches).
func (s *Services) Close() error {
	var first error
	for i := len(s.closers) - 1; i >= 0; i-- {
		if err := s.closers[i](); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// OnClose registers a function Close runs (in reverse order).
func (s *Services) OnClose(f func() error) { s.closers = append(s.closers, f) }

// NewLogger builds the process logger: text in development, JSON in production (or as set).
func NewLogger(cfg config.Config, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.Log.Level))
	opts := &slog.HandlerOptions{Level: level}
	format := cfg.Log.Format
	if format == "" {
		format = "text"
		if cfg.Production() {
			format = "json"
		}
	}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// writeDependent are the options spec rule 4 switches off without durable writable storage.
func writeDependent(c *config.Config) map[string]*bool {
	return map[string]*bool{
		"seo.errorTracking":   &c.SEO.ErrorTracking,
		"seo.reports":         &c.SEO.Reports,
		"git.enabled":         &c.Git.Enabled,
		"staticCache.enabled": &c.StaticCache.Enabled,
		"cp.enabled":          &c.CP.Enabled,
	}
}

// Writable reports whether a file can be created in dir.
func Writable(dir string) bool {
	f, err := os.CreateTemp(dir, ".cms-write-probe-*")
	if err != nil {
		return false
	}
	name := f.Name()
	f.Close()
	_ = os.Remove(name)
	return true
}

// ApplyReadOnly marks the configuration read-only and switches off the write-dependent options,
// returning the ones that were on.
func ApplyReadOnly(c *config.Config) []string {
	c.ReadOnly = true
	var off []string
	for name, p := range writeDependent(c) {
		if *p {
			*p = false
			off = append(off, name)
		}
	}
	sortStrings(off)
	c.Disabled = off
	return off
}

// NewServices opens the store and builds the shared services.
func NewServices(ctx context.Context, cfg config.Config, log *slog.Logger) (*Services, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	st, err := os.Stat(cfg.SiteDir)
	if err != nil || !st.IsDir() {
		return nil, fmt.Errorf("site folder %s does not exist or is not a folder", cfg.SiteDir)
	}
	if !cfg.ReadOnly && !Writable(cfg.SiteDir) {
		if off := ApplyReadOnly(&cfg); len(off) > 0 {
			log.Warn("site folder is not writable: write-dependent options switched off", "folder", cfg.SiteDir, "disabled", strings.Join(off, ", "))
		} else {
			log.Warn("site folder is not writable: serving read-only", "folder", cfg.SiteDir)
		}
	}
	store, err := fsstore.Open(ctx, fsstore.Options{
		Dir:          cfg.SiteDir,
		ContentDir:   cfg.ContentPath,
		ResourcesDir: cfg.ResourcesPath,
		UsersDir:     cfg.UsersPath,
		AssetsDir:    cfg.AssetsPath,
		ReadOnly:     cfg.ReadOnly,
		Watch:        cfg.Watch,
		Log:          log.With("component", "store"),
	})
	if err != nil {
		return nil, fmt.Errorf("open site %s: %w", cfg.SiteDir, err)
	}
	s := &Services{
		Config:   cfg,
		Log:      log,
		Store:    store,
		Markdown: markdown.New(cfg.Markdown.AllowHTML),
		Now:      time.Now,
		Started:  time.Now(),
	}
	s.OnClose(store.Close)
	return s, nil
}

// Group is one endpoint group: its name (the handler package), the path prefixes it serves, and
// whether it writes mutable files (writer groups run as the single writer on Lambda).
type Group struct {
	Name     string
	Prefixes func(config.Config) []string
	Writer   bool
	Build    func(*Services) (http.Handler, error)
}

// Groups lists every endpoint group. It is a function, not a table variable, so that a Lambda
// main that calls one builder does not link the others.
func Groups() []Group {
	return []Group{
		{Name: "health", Prefixes: healthPrefixes, Build: Health},
		{Name: "publicentries", Prefixes: publicEntriesPrefixes, Build: PublicEntries},
		{Name: "entries", Prefixes: entriesPrefixes, Writer: true, Build: Entries},
	}
}

// Mux mounts every group on one mux at its prefixes (no StripPrefix: paths stay what API
// Gateway forwards), with a JSON 404 for any other /api/ path.
func Mux(s *Services) (http.Handler, error) {
	mux := http.NewServeMux()
	for _, g := range Groups() {
		h, err := g.Build(s)
		if err != nil {
			return nil, fmt.Errorf("build %s: %w", g.Name, err)
		}
		if h == nil {
			continue // disabled by configuration
		}
		for _, p := range g.Prefixes(s.Config) {
			mux.Handle(p, h)
		}
	}
	mux.Handle("/api/", notFound())
	return mux, nil
}

// SitePath resolves a configured path against the site folder.
func (s *Services) SitePath(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(s.Config.SiteDir, filepath.FromSlash(p))
}
