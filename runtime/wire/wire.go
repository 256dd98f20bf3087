// Package wire builds the services every endpoint group shares (configuration, logger, store,
// Markdown renderer, clock) and defines [Group], the description of one endpoint group.
//
// Why the builders are not here: Go links whole packages, and a package's dependencies (and their
// init work) come with it. If wire imported the handler packages, every Lambda main would carry
// every group (GraphQL, wazero, ...). So wire imports no handler package except handlers/web and
// handlers/authn, which belong to no group; each group's builder lives in its own package
// runtime/groups/<group> (the only code that fills that group's Deps), and the list of all groups
// is runtime/groups.All, which only the local runner, the generators and tests import. A Lambda main imports exactly one runtime/groups/<group>
// package; runtime/lambda's dependency test enforces this.
//
// To add a group: create runtime/groups/<group>/<group>.go with Group() (see
// runtime/groups/health), add one line to runtime/groups.All, and run go generate ./runtime/lambda
// (it writes the Lambda main and the infra template entries; tests fail until you do).
package wire

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"cms/content"
	"cms/content/fsstore"
	"cms/content/gitsync"
	"cms/content/lru"
	"cms/content/markdown"
	"cms/content/pagecache"
	"cms/handlers/web"
	"cms/runtime/config"
	"cms/runtime/serve"
)

// Services are built once per process and shared by every group.
type Services struct {
	Config config.Config
	Log    *slog.Logger
	Store  *fsstore.Store
	// Auth authenticates requests of protected groups: an *authn.Authenticator over the
	// process's session store (auth.go). Nil until the auth services are built; protected
	// groups then answer 401.
	Auth     web.Authenticator
	Markdown *markdown.Renderer
	Now      func() time.Time
	Started  time.Time
	// Caches reports the caches the groups build, each within its share of memory.cacheMiB
	// (CacheBytes), for the readiness details.
	Caches *lru.Registry
	// Git commits and pushes every change written through Store (git.enabled); nil when off
	// and in read-only processes.
	Git *gitsync.Syncer
	// StaticCache is the static page cache (staticCache.enabled; staticcache.go); nil when off.
	StaticCache *pagecache.Cache

	closers []func() error
	purged  atomic.Pointer[func(urls []string)] // OnStaticCachePurge
	shared  sharedValues                        // see Shared
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
	format := cfg.Log.Format
	if format == "" {
		format = "text"
		if cfg.Production() {
			format = "json"
		}
	}
	return slog.New(serve.NewLogHandler(w, format == "json", level))
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
	sort.Strings(off)
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
	var sweep []string // the sessions folder, when inside the site: its temp files hold sessions
	if d := filepath.Clean(cfg.Auth.SessionsDir); d != "." && filepath.IsLocal(d) {
		sweep = append(sweep, filepath.ToSlash(d))
	}
	opts := StoreOptions(cfg)
	opts.SweepDirs, opts.Log = sweep, log.With("component", "store")
	var git *gitsync.Syncer
	if cfg.Git.Enabled && !cfg.ReadOnly {
		// Before the store opens: every write through it reaches the queue (OnChange).
		if git, err = gitsync.New(GitOptions(cfg, log.With("component", "git"))); err != nil {
			return nil, fmt.Errorf("git sync: %w", err)
		}
		opts.OnChange = git.Enqueue
	}
	s := &Services{
		Config:   cfg,
		Log:      log,
		Markdown: markdown.New(cfg.Markdown.AllowHTML),
		Now:      time.Now,
		Started:  time.Now(),
		// One budget, memory.cacheMiB: the caches lend each other what they leave unused.
		Caches: &lru.Registry{Pool: lru.NewPool()},
		Git:    git,
	}
	// Before the store opens: its content changes purge the cache (OnContentChange).
	if err := openStaticCache(s, cfg, &opts, log.With("component", "static-cache")); err != nil {
		s.Close()
		if git != nil {
			git.Close()
		}
		return nil, err
	}
	store, err := fsstore.Open(ctx, opts)
	if err != nil {
		s.Close()
		if git != nil {
			git.Close()
		}
		return nil, fmt.Errorf("open site %s: %w", cfg.SiteDir, err)
	}
	s.Store = store
	if git != nil {
		s.OnClose(git.Close) // after the store's (closers run in reverse): its watcher reports to git
	}
	s.OnClose(store.Close)
	if err := buildAuth(s); err != nil { // fills s.Auth (auth.go)
		s.Close()
		return nil, err
	}
	return s, nil
}

// StoreOptions are the store's options as the configuration sets them: the site folder and its
// content, resources, users and assets folders, read-only, watching and the index snapshot. It is
// the one mapping, so the server and the CLI commands open the same store.
func StoreOptions(cfg config.Config) fsstore.Options {
	return fsstore.Options{
		Dir:          cfg.SiteDir,
		ContentDir:   cfg.ContentPath,
		ResourcesDir: cfg.ResourcesPath,
		UsersDir:     cfg.UsersPath,
		AssetsDir:    cfg.AssetsPath,
		ReadOnly:     cfg.ReadOnly,
		Watch:        cfg.Watch,
		Snapshot:     cfg.IndexSnapshot,
	}
}

// GitOptions are git sync's options as the configuration sets them: tracked roots named by
// folder option (content, resources, assets, users) or site-relative path; sessions, .cms/,
// storage/ and the operational folders never committed.
func GitOptions(cfg config.Config, log *slog.Logger) gitsync.Options {
	folders := map[string]string{"content": cfg.ContentPath, "resources": cfg.ResourcesPath, "assets": cfg.AssetsPath, "users": cfg.UsersPath}
	var tracked []gitsync.Tracked
	for _, t := range cfg.Git.TrackedPaths {
		root := t.Root
		if f, ok := folders[root]; ok {
			root = f
		}
		tracked = append(tracked, gitsync.Tracked{Root: filepath.ToSlash(filepath.Clean(root)), Exclude: t.Exclude})
	}
	never := []string{".cms", "storage"}
	for _, p := range []string{cfg.Auth.SessionsDir, cfg.SEO.OperationalStoragePath} {
		if rel, err := filepath.Rel(cfg.SiteDir, sitePath(cfg.SiteDir, p)); err == nil && filepath.IsLocal(rel) {
			never = append(never, filepath.ToSlash(rel))
		}
	}
	return gitsync.Options{
		SiteDir:          cfg.SiteDir,
		StatePath:        sitePath(cfg.SiteDir, cfg.Git.StatePath),
		Tracked:          tracked,
		Never:            never,
		Debounce:         cfg.Git.Debounce,
		Manual:           !cfg.Git.Automatic,
		Push:             cfg.Git.Push,
		Remote:           cfg.Git.Remote,
		Branch:           cfg.Git.Branch,
		UseAuthenticated: cfg.Git.Author.UseAuthenticated,
		Bot:              content.Editor{Name: cfg.Git.Author.Name, Email: cfg.Git.Author.Email},
		CommitPrefix:     cfg.Git.CommitPrefix,
		Timeout:          cfg.Git.CommandTimeout,
		Log:              log,
		Instance:         cfg.Instance,
	}
}

func sitePath(site, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(site, filepath.FromSlash(p))
}

// Group is one endpoint group: its name (the handler package's name), the path prefixes it serves,
// how it uses the site folder on Lambda, and its builder.
type Group struct {
	Name     string
	Prefixes func(config.Config) []string
	// Writer groups change mutable files (entries, users, sessions, ...). On Lambda they are the
	// single writer: reserved concurrency 1 and a read-write mount (spec rule 3).
	Writer bool
	// Appends marks a group that only ever creates new, uniquely named files (form submissions):
	// it needs write access but no lock, so it may scale out. Neither flag means a read-only
	// frontend that scales out.
	Appends bool
	// Build returns the group's handler, or nil when configuration disables the group.
	Build func(*Services) (http.Handler, error)
	// CORS picks the cross-origin mode of a path (cors.origins); nil means every path of the
	// group is web.CORSPrivate: same-origin unless an origin is listed exactly.
	CORS func(path string) web.CORSMode
}

// CORSPublic is the Group.CORS of a group whose every path is anonymous and public.
func CORSPublic(string) web.CORSMode { return web.CORSPublic }

// Mount mounts groups on one mux at their prefixes (no StripPrefix: paths stay what API Gateway
// forwards), each behind the CORS policy (cors.origins) in its Group.CORS mode, with a JSON 404
// for any other /api/ path. The local runner mounts every group; a
// Lambda function mounts its own one, so both answer unknown paths alike.
func Mount(s *Services, groups ...Group) (http.Handler, error) {
	cors, err := web.NewCORS(s.Config.CORS.Origins, s.Config.CORS.MaxAgeSeconds)
	if err != nil {
		return nil, fmt.Errorf("cors.origins: %w", err)
	}
	mux := http.NewServeMux()
	for _, g := range groups {
		h, err := g.Build(s)
		if err != nil {
			return nil, fmt.Errorf("build %s: %w", g.Name, err)
		}
		if h == nil {
			continue // disabled by configuration
		}
		h = cors.Wrap(h, g.CORS)
		for _, p := range g.Prefixes(s.Config) {
			mux.Handle(p, h)
		}
	}
	mux.Handle("/api/", NotFound())
	return mux, nil
}

// NotFound answers every request with the JSON 404 of unknown routes.
func NotFound() http.Handler {
	return web.HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
		return web.NotFound("Route not found: %s %s", r.Method, r.URL.Path)
	})
}

// SitePath resolves a configured path against the site folder.
func (s *Services) SitePath(p string) string { return sitePath(s.Config.SiteDir, p) }
