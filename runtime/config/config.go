// Package config loads the service configuration: defaults, then the site's cms.config.yaml, then
// environment variables. Load is pure (it reads files only through the given site folder and the
// environment only through getenv), validates everything and reports every problem at once.
//
// Every key of cms.config.yaml can also be set from the environment: CMS_ + the key path in upper
// snake case, e.g. graphql.enabled -> CMS_GRAPHQL_ENABLED, auth.storeConfig.sessionDurationMs ->
// CMS_AUTH_STORE_CONFIG_SESSION_DURATION_MS. NODE_ENV (or CMS_ENV), PORT and CMS_SITE_DIR are
// recognised as well.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"cms/content"
	"cms/content/frontmatter"
	"cms/content/imgurl"
	"cms/handlers/web"
)

// FileName is the configuration file at the site root.
const FileName = "cms.config.yaml"

// Site is one public origin.
type Site struct {
	Handle  string `json:"handle"`
	URL     string `json:"url"`
	Locale  string `json:"locale"`
	Default bool   `json:"default"`
}

// Config is the whole service configuration.
type Config struct {
	Env     string // "development" or "production"
	Port    int
	SiteDir string

	ContentPath   string
	ResourcesPath string
	UsersPath     string
	AssetsPath    string

	GraphQL struct {
		Enabled       bool
		Introspection bool
		Path          string
		MaxDepth      int
		MaxComplexity int
		Timeout       time.Duration
		MaxBodyBytes  int64 // request body limit of POST /api/graphql
	}
	CP struct {
		Enabled bool
		Path    string
	}
	Auth struct {
		Driver          string
		Store           string
		Provider        string
		SessionsDir     string
		SessionDuration time.Duration
		// Failed-login limits within LoginWindow.
		MaxFailuresPerEmail   int
		MaxFailuresPerAddress int
		LoginWindow           time.Duration
	}
	Sites []Site
	SEO   struct {
		OperationalStoragePath string
		ErrorTracking          bool
		Redirects              bool
		Reports                bool
		// Notes 14.1; see SEOConfig and docs/seo.md.
		Enabled                 bool
		Metadata                bool
		StructuredData          bool
		Sitemap                 bool
		Robots                  bool
		Humans                  bool
		SocialImages            bool
		AllowExternalCanonicals bool
		AllowedRedirectOrigins  []string
		TrailingSlash           string // never, always or preserve
		ReportRetentionDays     int
		ReportSnapshotLimit     int
	}
	Pages struct {
		// CacheControl is the Cache-Control of rendered public pages.
		CacheControl string
		// ContentSecurityPolicy is sent with every public page; "" sends none.
		ContentSecurityPolicy string
	}
	// Site configures the public website beyond its pages.
	Site struct {
		// Upstream is the origin (http(s)://host[:port]) of a headless frontend that answers the
		// page requests the site cannot route itself; "" = none.
		Upstream string
	}
	// StaticCache configures the static page cache (docs/static-cache.md, content/pagecache).
	StaticCache struct {
		Enabled           bool
		Driver            string // memory (default; "application" is accepted for it) or file
		StoragePath       string // folder of the file driver; relative = inside the site folder
		MaxBytes          int64  // budget of the memory driver
		Exclude           []string
		QueryStrings      string // ignore or separate
		PurgeWebhook      string // http(s) URL that receives each purge's URLs as JSON; "" = none
		InvalidationRules []CacheRule
	}
	Git struct {
		Enabled   bool
		StatePath string // the queue of changes not yet committed; persistent, writable storage
		Automatic bool   // commit after the debounce; false = only on sync
		Push      bool
		Debounce  time.Duration
		// TrackedPaths are the roots committed (a folder option name: content, resources,
		// assets, users; or a site-relative path) with patterns left out, relative to the root.
		TrackedPaths []GitTracked
		Remote       string
		Branch       string // the remote branch pushed to; "" = the checked-out branch's name
		Author       struct {
			UseAuthenticated bool
			Name             string
			Email            string
		}
		CommitPrefix   string
		CommandTimeout time.Duration
	}
	Public struct {
		BasePath string // base path of the public read API
	}
	// CORS is the cross-origin policy (handlers/web.CORS): origins may be exact
	// ("https://app.example.com"), a host with any port ("http://localhost:*"), or "*" (anonymous
	// public routes only). None in production unless set; "http://localhost:*" in development.
	CORS struct {
		Origins       []string
		MaxAgeSeconds int
	}
	Markdown struct {
		AllowHTML bool // render raw HTML in Markdown instead of escaping it
	}
	Forms struct {
		RateLimit    int // submissions per minute per form and client address; 0 = off
		MaxBodyBytes int64
	}
	Hooks struct {
		MaxModuleBytes int64
		MemoryMiB      int
		Timeout        time.Duration
		CacheDir       string
	}
	Assets struct {
		MaxUploadBytes int64
		AllowedTypes   []string // MIME types; empty = all except active content
		// Transforms of raster images (GET /assets/{path}?preset= or signed parameters).
		Transforms struct {
			Presets       map[string]imgurl.Params // by name; the only unsigned transforms
			SigningKey    string                   // HMAC key of signed URLs; "" = presets only
			MaxConcurrent int                      // transforms at once
		}
	}
	Server struct {
		// Open connections of `cms serve`, in all and from one client address (IPv6: one /64);
		// 0 = no cap. Connections over a cap are closed at once (runtime/serve.LimitListener).
		MaxConnections           int
		MaxConnectionsPerAddress int
		// BodyTimeout is how long a small request body may take to arrive (web.ReadBody).
		BodyTimeout time.Duration
	}
	Memory struct {
		// CacheMiB is the byte budget of all in-memory caches together, split among them by
		// fixed shares (runtime/wire.CacheShares); 0 = no caches.
		CacheMiB int
		// LimitMiB is the Go runtime's soft memory limit (debug.SetMemoryLimit); 0 = none, or
		// on Lambda the function's memory less headroom. GOMEMLIMIT, when set, wins.
		LimitMiB int
	}
	Log struct {
		Level  string // debug, info, warn, error
		Format string // text or json; "" = text in development, json in production
	}
	Watch string // notify, poll, none, or generation (Lambda: Refresh per request, see fsstore)
	// IndexSnapshot keeps the entry index snapshot under .cms/ so start-up reads one file
	// instead of every entry (docs/architecture.md, section 3).
	IndexSnapshot bool
	// BasePath is a path prefix the Lambda runner strips from requests (an API Gateway custom
	// domain's mapping path, e.g. /cms); "" = none.
	BasePath string

	introspectionSet bool
	corsOriginsSet   bool

	// ReadOnly is set when the site folder is not writable; Disabled then lists the options
	// that were switched off because of it.
	ReadOnly bool
	Disabled []string
	// Instance names this process among several writers of one site folder (on Lambda, the
	// writer group's name), so that each keeps its own git sync queue; "" locally. Not a key.
	Instance string
}

// DevCORSOrigin is cors.origins in development when unset: a frontend's dev server on any port
// of localhost may read the public API.
const DevCORSOrigin = "http://localhost:*"

// MemoryHeadroomMiB is what the process needs beyond its caches (index, requests in flight,
// garbage not yet collected): memory.limitMiB must leave at least this much above
// memory.cacheMiB.
const MemoryHeadroomMiB = 32

// Production reports whether the service runs in production mode.
func (c *Config) Production() bool { return c.Env == "production" }

// Default returns the defaults of the spec's configuration table.
func Default() Config {
	var c Config
	c.Env = "development"
	c.Port = 3000
	c.SiteDir = "."
	c.ContentPath = "content"
	c.ResourcesPath = "resources"
	c.UsersPath = "users"
	c.AssetsPath = "public/assets"
	c.GraphQL.Enabled = true
	c.GraphQL.Introspection = true
	c.GraphQL.Path = "/api/graphql"
	c.GraphQL.MaxDepth = 12
	c.GraphQL.MaxComplexity = 5000
	c.GraphQL.Timeout = 10 * time.Second
	c.GraphQL.MaxBodyBytes = 256 << 10
	c.CP.Enabled = true
	c.CP.Path = "/cp"
	c.Auth.Driver = "password"
	c.Auth.Store = "file"
	c.Auth.Provider = "yaml"
	c.Auth.SessionsDir = ".sessions"
	c.Auth.SessionDuration = 24 * time.Hour
	c.Auth.MaxFailuresPerEmail = 5
	c.Auth.MaxFailuresPerAddress = 20
	c.Auth.LoginWindow = 15 * time.Minute
	c.Sites = []Site{{Handle: "default", URL: "http://localhost:3000", Locale: "en", Default: true}}
	c.SEO.OperationalStoragePath = "storage/seo"
	c.SEO.Enabled = true
	c.SEO.Metadata = true
	c.SEO.StructuredData = true
	c.SEO.Sitemap = true
	c.SEO.Robots = true
	c.SEO.Humans = true
	c.Pages.CacheControl = "public, max-age=60"
	c.Pages.ContentSecurityPolicy = "default-src 'self'; img-src 'self' https: data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
	c.SEO.ErrorTracking = true
	c.SEO.Redirects = true
	c.SEO.Reports = true
	c.SEO.Enabled, c.SEO.Metadata, c.SEO.StructuredData = true, true, true
	c.SEO.Sitemap, c.SEO.Robots, c.SEO.Humans = true, true, true
	c.SEO.TrailingSlash = "never"
	c.SEO.ReportRetentionDays, c.SEO.ReportSnapshotLimit = 90, 50
	c.Git.StatePath = "storage/git-sync"
	c.Git.Automatic = true
	c.Git.Debounce = 2 * time.Second
	c.Git.TrackedPaths = []GitTracked{{Root: "content", Exclude: []string{"forms/**"}}, {Root: "resources"}}
	c.Git.Remote = "origin"
	c.Git.Author.UseAuthenticated = true
	c.Git.Author.Name = "CMS"
	c.Git.Author.Email = "cms@localhost"
	c.Git.CommitPrefix = "[CMS]"
	c.Git.CommandTimeout = 30 * time.Second
	c.StaticCache.Driver = "memory"
	c.StaticCache.StoragePath = "storage/static-cache"
	c.StaticCache.MaxBytes = 64 << 20
	c.StaticCache.QueryStrings = "ignore"
	c.Public.BasePath = "/api/public"
	c.CORS.MaxAgeSeconds = 600
	c.Forms.RateLimit = 30
	c.Forms.MaxBodyBytes = 64 << 10
	c.Hooks.MaxModuleBytes = 8 << 20
	c.Hooks.MemoryMiB = 64
	c.Hooks.Timeout = 100 * time.Millisecond
	c.Hooks.CacheDir = filepath.Join(os.TempDir(), "cms-wasm-cache")
	c.Assets.MaxUploadBytes = 10 << 20
	c.Assets.Transforms.MaxConcurrent = 2
	c.Server.MaxConnections = 2048
	c.Server.MaxConnectionsPerAddress = 256
	c.Server.BodyTimeout = 10 * time.Second
	c.Memory.CacheMiB = 48
	c.Log.Level = "info"
	c.Watch = "notify"
	c.IndexSnapshot = true
	return c
}

// Warning is a non-fatal configuration remark (an unknown key, an option switched off).
type Warning string

// Load builds the configuration for the site folder siteDir ("" = $CMS_SITE_DIR or ".").
func Load(siteDir string, getenv func(string) string) (Config, []Warning, error) {
	c := Default()
	if siteDir == "" {
		siteDir = getenv("CMS_SITE_DIR")
	}
	if siteDir == "" {
		siteDir = "."
	}
	c.SiteDir = siteDir
	var errs []error
	var warns []Warning
	keys := c.keys()

	file := filepath.Join(siteDir, FileName)
	raw, err := os.ReadFile(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		errs = append(errs, fmt.Errorf("%s: %w", file, err))
	default:
		m, err := frontmatter.ParseYAMLMap(raw, 1)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", file, err))
			break
		}
		flat := map[string]any{}
		flatten("", m, flat, keys)
		for _, k := range sortedKeys(flat) {
			key, ok := keys[k]
			if !ok {
				warns = append(warns, Warning(fmt.Sprintf("%s: unknown key %q is ignored", file, k)))
				continue
			}
			if err := key.set(flat[k]); err != nil {
				errs = append(errs, fmt.Errorf("%s: %s: %w", file, k, err))
			}
		}
	}

	for _, k := range sortedKeys(keys) {
		name := EnvName(k)
		if v := getenv(name); v != "" {
			if err := keys[k].set(v); err != nil {
				errs = append(errs, fmt.Errorf("environment %s: %w", name, err))
			}
		}
	}
	for _, name := range []string{"CMS_ENV", "NODE_ENV"} {
		if v := getenv(name); v != "" {
			c.Env = v
			break
		}
	}
	if v := getenv("PORT"); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("environment PORT: %q is not a number", v))
		} else {
			c.Port = p
		}
	}
	if c.Production() && !c.introspectionSet {
		c.GraphQL.Introspection = false
	}
	if c.Env == "development" && !c.corsOriginsSet {
		c.CORS.Origins = []string{DevCORSOrigin}
	}
	errs = append(errs, c.validate()...)
	if len(errs) > 0 {
		return c, warns, fmt.Errorf("invalid configuration:\n  %w", joinLines(errs))
	}
	return c, warns, nil
}

func joinLines(errs []error) error {
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return errors.New(strings.Join(msgs, "\n  "))
}

func (c *Config) validate() []error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", key, fmt.Sprintf(format, args...)))
	}
	if c.Env != "development" && c.Env != "production" && c.Env != "test" {
		bad("NODE_ENV", "must be development, production or test, not %q", c.Env)
	}
	if c.Port < 0 || c.Port > 65535 {
		bad("PORT", "must be between 0 and 65535, not %d", c.Port)
	}
	for key, p := range map[string]string{"contentPath": c.ContentPath, "resourcesPath": c.ResourcesPath, "usersPath": c.UsersPath, "assetsPath": c.AssetsPath} {
		if p == "" || filepath.IsAbs(p) || strings.HasPrefix(filepath.Clean(p), "..") {
			bad(key, "must be a relative path inside the site folder, not %q", p)
		}
	}
	if c.Auth.Driver != "password" {
		bad("auth.driver", "unknown driver %q (available: password)", c.Auth.Driver)
	}
	if c.Auth.Store != "file" {
		bad("auth.store", "unknown session store %q (available: file)", c.Auth.Store)
	}
	if c.Auth.Provider != "yaml" {
		bad("auth.provider", "unknown user provider %q (available: yaml)", c.Auth.Provider)
	}
	if c.Auth.SessionDuration < time.Minute {
		bad("auth.storeConfig.sessionDurationMs", "must be at least 60000 (one minute)")
	}
	if c.Auth.MaxFailuresPerEmail < 1 || c.Auth.MaxFailuresPerAddress < 1 {
		bad("auth.rateLimit", "failure limits must be at least 1")
	}
	if !strings.HasPrefix(c.Public.BasePath, "/") || strings.HasSuffix(c.Public.BasePath, "/") {
		bad("public.basePath", "must start with / and not end with /, not %q", c.Public.BasePath)
	}
	if c.BasePath != "" && (!strings.HasPrefix(c.BasePath, "/") || strings.HasSuffix(c.BasePath, "/")) {
		bad("basePath", "must be empty or start with / and not end with /, not %q", c.BasePath)
	}
	if _, err := web.NewCORS(c.CORS.Origins, c.CORS.MaxAgeSeconds); err != nil {
		bad("cors.origins", "%v", err)
	}
	if c.CORS.MaxAgeSeconds > 86400 {
		bad("cors.maxAgeSeconds", "must be at most 86400 (a day), not %d", c.CORS.MaxAgeSeconds)
	}
	if !strings.HasPrefix(c.GraphQL.Path, "/") {
		bad("graphql.path", "must start with /")
	}
	if c.GraphQL.MaxDepth < 1 || c.GraphQL.MaxComplexity < 1 {
		bad("graphql", "maxDepth and maxComplexity must be at least 1")
	}
	if k := c.Assets.Transforms.SigningKey; k != "" && len(k) < imgurl.MinKeyLen {
		bad("assets.transforms.signingKey", "must be at least %d characters (e.g. openssl rand -hex 32), not %d", imgurl.MinKeyLen, len(k))
	}
	if n := c.Assets.Transforms.MaxConcurrent; n < 1 || n > 64 {
		bad("assets.transforms.maxConcurrent", "must be between 1 and 64, not %d", n)
	}
	if c.Forms.RateLimit < 0 {
		bad("forms.rateLimit", "must be 0 (off) or more")
	}
	if c.Memory.CacheMiB > 1<<20 {
		bad("memory.cacheMiB", "must be at most 1048576 (1 TiB), not %d", c.Memory.CacheMiB)
	}
	if c.Memory.LimitMiB != 0 && c.Memory.LimitMiB < c.Memory.CacheMiB+MemoryHeadroomMiB {
		bad("memory.limitMiB", "must be 0 (none) or at least memory.cacheMiB + %d (%d), not %d", MemoryHeadroomMiB, c.Memory.CacheMiB+MemoryHeadroomMiB, c.Memory.LimitMiB)
	}
	switch c.Watch {
	case "notify", "poll", "none":
	case "generation":
		if !c.IndexSnapshot {
			bad("watch", "generation needs indexSnapshot: true")
		}
	default:
		bad("watch", "must be notify, poll, none or generation, not %q", c.Watch)
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		bad("log.level", "must be debug, info, warn or error, not %q", c.Log.Level)
	}
	switch c.Log.Format {
	case "", "text", "json":
	default:
		bad("log.format", "must be text or json, not %q", c.Log.Format)
	}
	if c.Git.Enabled {
		if c.Git.StatePath == "" {
			bad("git.statePath", "must name a folder")
		}
		if c.Git.Debounce < 0 || c.Git.CommandTimeout < time.Second {
			bad("git", "debounceMs must be 0 or more and commandTimeoutMs at least 1000")
		}
		if c.Git.Author.Name == "" || c.Git.Author.Email == "" {
			bad("git.author", "name and email must not be empty")
		}
		if c.Git.Remote == "" || strings.ContainsAny(c.Git.Remote, " /:") {
			bad("git.remote", "must be the name of a configured remote, not %q", c.Git.Remote)
		}
		if c.Git.Branch != "" && (strings.ContainsAny(c.Git.Branch, " :~^?*[\\") || strings.HasPrefix(c.Git.Branch, "-")) {
			bad("git.branch", "is not a valid branch name: %q", c.Git.Branch)
		}
		for i, t := range c.Git.TrackedPaths {
			if t.Root == "" || filepath.IsAbs(t.Root) || strings.HasPrefix(filepath.Clean(t.Root), "..") {
				bad(fmt.Sprintf("git.trackedPaths[%d].root", i), "must be content, resources, assets, users or a relative path inside the site folder, not %q", t.Root)
			}
		}
	}
	errs = append(errs, c.validateSEO()...)
	errs = append(errs, c.validateStaticCache()...)
	errs = append(errs, c.validateSites()...)
	if strings.ContainsAny(c.Pages.CacheControl, "\r\n") {
		bad("pages.cacheControl", "must be one line")
	}
	if strings.ContainsAny(c.Pages.ContentSecurityPolicy, "\r\n") {
		bad("pages.contentSecurityPolicy", "must be one line")
	}
	return errs
}

var (
	siteHandleRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	localeRE     = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)
)

// validateSites checks the sites (notes 14.1): handles, origins and locales, no handle or URL
// twice, at most one default; with none marked, the first becomes the default. URLs lose a
// trailing slash so that joining a path never doubles it.
func (c *Config) validateSites() []error {
	var errs []error
	bad := func(i int, field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("sites[%d].%s: %s", i, field, fmt.Sprintf(format, args...)))
	}
	if len(c.Sites) == 0 {
		return []error{errors.New("sites: must list at least one site")}
	}
	handles, urls := map[string]bool{}, map[string]bool{}
	defaults := 0
	for i := range c.Sites {
		s := &c.Sites[i]
		if !siteHandleRE.MatchString(s.Handle) {
			bad(i, "handle", "must be lower-case letters, digits and -, starting with a letter or digit, not %q", s.Handle)
		} else if handles[s.Handle] {
			bad(i, "handle", "%q is used twice", s.Handle)
		}
		handles[s.Handle] = true
		if msg := checkSiteURL(s.URL); msg != "" {
			bad(i, "url", "%s, not %q", msg, s.URL)
		} else {
			s.URL = strings.TrimSuffix(s.URL, "/")
			key := strings.ToLower(s.URL)
			if urls[key] {
				bad(i, "url", "%q is used twice", s.URL)
			}
			urls[key] = true
		}
		if !localeRE.MatchString(s.Locale) {
			bad(i, "locale", "must be a language tag such as en or en-US, not %q", s.Locale)
		}
		if s.Default {
			defaults++
		}
	}
	switch {
	case defaults > 1:
		errs = append(errs, fmt.Errorf("sites: exactly one site may be the default, not %d", defaults))
	case defaults == 0:
		c.Sites[0].Default = true
	}
	return errs
}

// checkSiteURL says what is wrong with a site URL: it must be an absolute http(s) URL without
// credentials, query or fragment; it may have a path (a site in a sub-folder).
func checkSiteURL(raw string) string {
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https"):
		return "must be an absolute http(s) URL"
	case u.User != nil:
		return "must not hold a user name or password"
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.ContainsAny(raw, "?#"):
		return "must not have a query or fragment"
	case strings.Contains(u.Path, "//") || strings.Contains(u.Path, "/./") || strings.Contains(u.Path, "/../") || strings.HasSuffix(u.Path, "/.."):
		return "must have a clean path"
	}
	return ""
}

// ContentSites returns the sites as the content packages use them.
func (c *Config) ContentSites() []content.Site {
	out := make([]content.Site, len(c.Sites))
	for i, s := range c.Sites {
		out[i] = content.Site{Handle: s.Handle, URL: s.URL, Locale: s.Locale, Default: s.Default, TrailingSlash: c.SEO.TrailingSlash}
	}
	return out
}

// EnvName is the environment variable that overrides a configuration key.
func EnvName(key string) string {
	var b strings.Builder
	b.WriteString("CMS_")
	prev := rune(0)
	for _, r := range strings.ReplaceAll(key, "MiB", "Mib") { // a unit is one word: MIB, not MI_B
		switch {
		case r == '.':
			b.WriteByte('_')
		case unicode.IsUpper(r) && prev != '.' && prev != 0 && !unicode.IsUpper(prev):
			b.WriteByte('_')
			b.WriteRune(r)
		default:
			b.WriteRune(unicode.ToUpper(r))
		}
		prev = r
	}
	return b.String()
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// flatten turns nested maps into dotted keys, stopping at keys that are known leaves (so a map or
// list value of a leaf such as sites stays whole).
func flatten(prefix string, m *content.Map, out map[string]any, leaves map[string]key) {
	for _, k := range m.Keys() {
		full := k
		if prefix != "" {
			full = prefix + "." + k
		}
		v := m.Value(k)
		if sub, ok := v.(*content.Map); ok {
			if _, leaf := leaves[full]; !leaf {
				flatten(full, sub, out, leaves)
				continue
			}
		}
		out[full] = v
	}
}
