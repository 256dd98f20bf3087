package config

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"cms/content"
	"cms/content/imgurl"
)

type key struct {
	set func(v any) error
}

// keys is the table of every configuration key: one place lists them, their types and where
// they land, for the file and the environment alike.
func (c *Config) keys() map[string]key {
	return map[string]key{
		"contentPath":                        strKey(&c.ContentPath),
		"resourcesPath":                      strKey(&c.ResourcesPath),
		"usersPath":                          strKey(&c.UsersPath),
		"assetsPath":                         strKey(&c.AssetsPath),
		"graphql.enabled":                    boolKey(&c.GraphQL.Enabled),
		"graphql.introspection":              {set: func(v any) error { c.introspectionSet = true; return boolKey(&c.GraphQL.Introspection).set(v) }},
		"graphql.path":                       strKey(&c.GraphQL.Path),
		"graphql.maxDepth":                   intKey(&c.GraphQL.MaxDepth),
		"graphql.maxComplexity":              intKey(&c.GraphQL.MaxComplexity),
		"graphql.timeoutMs":                  msKey(&c.GraphQL.Timeout),
		"graphql.maxBodyBytes":               int64Key(&c.GraphQL.MaxBodyBytes),
		"cp.enabled":                         boolKey(&c.CP.Enabled),
		"cp.path":                            strKey(&c.CP.Path),
		"auth.driver":                        strKey(&c.Auth.Driver),
		"auth.store":                         strKey(&c.Auth.Store),
		"auth.provider":                      strKey(&c.Auth.Provider),
		"auth.storeConfig.sessionsDir":       strKey(&c.Auth.SessionsDir),
		"auth.storeConfig.sessionDurationMs": msKey(&c.Auth.SessionDuration),
		"auth.rateLimit.perEmail":            intKey(&c.Auth.MaxFailuresPerEmail),
		"auth.rateLimit.perAddress":          intKey(&c.Auth.MaxFailuresPerAddress),
		"auth.rateLimit.windowMs":            msKey(&c.Auth.LoginWindow),
		"sites":                              {set: c.setSites},
		"seo.operationalStoragePath":         strKey(&c.SEO.OperationalStoragePath),
		"seo.errorTracking":                  boolKey(&c.SEO.ErrorTracking),
		"seo.redirects":                      boolKey(&c.SEO.Redirects),
		"seo.reports":                        boolKey(&c.SEO.Reports),
		"seo.enabled":                        boolKey(&c.SEO.Enabled),
		"seo.metadata":                       boolKey(&c.SEO.Metadata),
		"seo.structuredData":                 boolKey(&c.SEO.StructuredData),
		"seo.sitemap":                        boolKey(&c.SEO.Sitemap),
		"seo.robots":                         boolKey(&c.SEO.Robots),
		"seo.humans":                         boolKey(&c.SEO.Humans),
		"seo.socialImages":                   boolKey(&c.SEO.SocialImages),
		"seo.allowExternalCanonicals":        boolKey(&c.SEO.AllowExternalCanonicals),
		"seo.allowedRedirectOrigins":         strListKey(&c.SEO.AllowedRedirectOrigins),
		"seo.trailingSlash":                  strKey(&c.SEO.TrailingSlash),
		"seo.reportRetentionDays":            intKey(&c.SEO.ReportRetentionDays),
		"seo.reportSnapshotLimit":            intKey(&c.SEO.ReportSnapshotLimit),
		"pages.cacheControl":                 strKey(&c.Pages.CacheControl),
		"pages.contentSecurityPolicy":        strKey(&c.Pages.ContentSecurityPolicy),
		"site.upstream":                      strKey(&c.Site.Upstream),
		"staticCache.enabled":                boolKey(&c.StaticCache.Enabled),
		"staticCache.driver":                 strKey(&c.StaticCache.Driver),
		"staticCache.storagePath":            strKey(&c.StaticCache.StoragePath),
		"staticCache.maxBytes":               int64Key(&c.StaticCache.MaxBytes),
		"staticCache.exclude":                strListKey(&c.StaticCache.Exclude),
		"staticCache.queryStrings":           strKey(&c.StaticCache.QueryStrings),
		"staticCache.purgeWebhook":           strKey(&c.StaticCache.PurgeWebhook),
		"staticCache.invalidationRules":      {set: c.setCacheRules},
		"git.enabled":                        boolKey(&c.Git.Enabled),
		"git.statePath":                      strKey(&c.Git.StatePath),
		"git.automatic":                      boolKey(&c.Git.Automatic),
		"git.push":                           boolKey(&c.Git.Push),
		"git.debounceMs":                     msKey(&c.Git.Debounce),
		"git.trackedPaths":                   {set: c.setGitTracked},
		"git.remote":                         strKey(&c.Git.Remote),
		"git.branch":                         strKey(&c.Git.Branch),
		"git.author.useAuthenticated":        boolKey(&c.Git.Author.UseAuthenticated),
		"git.author.name":                    strKey(&c.Git.Author.Name),
		"git.author.email":                   strKey(&c.Git.Author.Email),
		"git.commitPrefix":                   strKey(&c.Git.CommitPrefix),
		"git.commandTimeoutMs":               msKey(&c.Git.CommandTimeout),
		"public.basePath":                    strKey(&c.Public.BasePath),
		"cors.origins":                       {set: func(v any) error { c.corsOriginsSet = true; return strListKey(&c.CORS.Origins).set(v) }},
		"cors.maxAgeSeconds":                 intKey(&c.CORS.MaxAgeSeconds),
		"markdown.allowHtml":                 boolKey(&c.Markdown.AllowHTML),
		"forms.rateLimit":                    intKey(&c.Forms.RateLimit),
		"forms.maxBodyBytes":                 int64Key(&c.Forms.MaxBodyBytes),
		"hooks.maxModuleBytes":               int64Key(&c.Hooks.MaxModuleBytes),
		"hooks.memoryMiB":                    intKey(&c.Hooks.MemoryMiB),
		"hooks.timeoutMs":                    msKey(&c.Hooks.Timeout),
		"hooks.cacheDir":                     strKey(&c.Hooks.CacheDir),
		"assets.maxUploadBytes":              int64Key(&c.Assets.MaxUploadBytes),
		"assets.allowedTypes":                strListKey(&c.Assets.AllowedTypes),
		"assets.transforms.presets":          {set: c.setPresets},
		"assets.transforms.signingKey":       strKey(&c.Assets.Transforms.SigningKey),
		"assets.transforms.maxConcurrent":    intKey(&c.Assets.Transforms.MaxConcurrent),
		"server.maxConnections":              intKey(&c.Server.MaxConnections),
		"server.maxConnectionsPerAddress":    intKey(&c.Server.MaxConnectionsPerAddress),
		"server.bodyTimeoutMs":               msKey(&c.Server.BodyTimeout),
		"memory.cacheMiB":                    intKey(&c.Memory.CacheMiB),
		"memory.limitMiB":                    intKey(&c.Memory.LimitMiB),
		"log.level":                          strKey(&c.Log.Level),
		"log.format":                         strKey(&c.Log.Format),
		"watch":                              strKey(&c.Watch),
		"indexSnapshot":                      boolKey(&c.IndexSnapshot),
		"basePath":                           strKey(&c.BasePath),
	}
}

func strKey(p *string) key {
	return key{set: func(v any) error {
		switch x := v.(type) {
		case string:
			*p = x
			return nil
		case int64, float64, bool:
			*p = fmt.Sprint(x)
			return nil
		}
		return fmt.Errorf("must be a string")
	}}
}

func boolKey(p *bool) key {
	return key{set: func(v any) error {
		switch x := v.(type) {
		case bool:
			*p = x
			return nil
		case string:
			b, err := strconv.ParseBool(strings.TrimSpace(x))
			if err != nil {
				return fmt.Errorf("must be true or false, not %q", x)
			}
			*p = b
			return nil
		}
		return fmt.Errorf("must be true or false")
	}}
}

func toInt(v any) (int64, error) {
	switch x := v.(type) {
	case int64:
		return x, nil
	case float64:
		if x != float64(int64(x)) {
			return 0, fmt.Errorf("must be a whole number")
		}
		return int64(x), nil
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("must be a whole number, not %q", x)
		}
		return n, nil
	}
	return 0, fmt.Errorf("must be a whole number")
}

func intKey(p *int) key {
	return key{set: func(v any) error {
		n, err := toInt(v)
		if err != nil {
			return err
		}
		if n < 0 {
			return fmt.Errorf("must not be negative")
		}
		*p = int(n)
		return nil
	}}
}

func int64Key(p *int64) key {
	return key{set: func(v any) error {
		n, err := toInt(v)
		if err != nil {
			return err
		}
		if n < 0 {
			return fmt.Errorf("must not be negative")
		}
		*p = n
		return nil
	}}
}

func msKey(p *time.Duration) key {
	return key{set: func(v any) error {
		n, err := toInt(v)
		if err != nil {
			return err
		}
		if n <= 0 {
			return fmt.Errorf("must be a positive number of milliseconds")
		}
		*p = time.Duration(n) * time.Millisecond
		return nil
	}}
}

func strListKey(p *[]string) key {
	return key{set: func(v any) error {
		switch x := v.(type) {
		case string:
			*p = nil
			for _, s := range strings.Split(x, ",") {
				if s = strings.TrimSpace(s); s != "" {
					*p = append(*p, s)
				}
			}
			return nil
		case []any:
			*p = nil
			for _, e := range x {
				s, ok := e.(string)
				if !ok {
					return fmt.Errorf("must be a list of strings")
				}
				*p = append(*p, s)
			}
			return nil
		}
		return fmt.Errorf("must be a list of strings")
	}}
}

// setSites accepts a list of {handle, url, locale} (or, from the environment, a comma-separated
// list of URLs).
func (c *Config) setSites(v any) error {
	var sites []Site
	switch x := v.(type) {
	case string:
		for i, u := range strings.Split(x, ",") {
			if u = strings.TrimSpace(u); u != "" {
				sites = append(sites, Site{Handle: fmt.Sprintf("site%d", i+1), URL: u, Locale: "en"})
			}
		}
		if len(sites) > 0 {
			sites[0].Handle = "default"
		}
	case []any:
		for i, e := range x {
			m, ok := e.(*content.Map)
			if !ok {
				return fmt.Errorf("sites[%d] must be a mapping with handle, url and locale", i)
			}
			s := Site{Locale: "en"}
			s.Handle, _ = m.String("handle")
			s.URL, _ = m.String("url")
			if l, ok := m.String("locale"); ok {
				s.Locale = l
			}
			switch d := m.Value("default").(type) {
			case nil:
			case bool:
				s.Default = d
			default:
				return fmt.Errorf("sites[%d].default must be true or false", i)
			}
			if s.Handle == "" {
				s.Handle = fmt.Sprintf("site%d", i+1)
			}
			sites = append(sites, s)
		}
	default:
		return fmt.Errorf("must be a list of sites")
	}
	if len(sites) == 0 {
		return fmt.Errorf("must list at least one site")
	}
	c.Sites = sites
	return nil
}

// setPresets accepts a mapping of preset names to {w, h, fit, fm, q} (or, from the environment,
// "name:w=200&h=200&fit=cover;other:w=800").
func (c *Config) setPresets(v any) error {
	out := map[string]imgurl.Params{}
	add := func(name string, p imgurl.Params, err error) error {
		if !content.ValidHandle(name) {
			return fmt.Errorf("preset name %q must be a plain identifier", name)
		}
		if err != nil {
			return fmt.Errorf("preset %s: %w", name, err)
		}
		out[name] = p
		return nil
	}
	switch x := v.(type) {
	case string:
		for _, part := range strings.Split(x, ";") {
			if part = strings.TrimSpace(part); part == "" {
				continue
			}
			name, query, _ := strings.Cut(part, ":")
			p, err := imgurl.ParsePresetQuery(query)
			if err := add(strings.TrimSpace(name), p, err); err != nil {
				return err
			}
		}
	case *content.Map:
		for _, name := range x.Keys() {
			m, ok := x.Value(name).(*content.Map)
			if !ok {
				return fmt.Errorf("preset %s must be a mapping of w, h, fit, fm and q", name)
			}
			q := url.Values{}
			for _, k := range m.Keys() {
				q.Set(k, fmt.Sprint(m.Value(k)))
			}
			p, err := imgurl.ParsePresetQuery(q.Encode())
			if err := add(name, p, err); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("must be a mapping of preset names to w, h, fit, fm and q")
	}
	c.Assets.Transforms.Presets = out
	return nil
}

// GitTracked is one entry of git.trackedPaths.
type GitTracked struct {
	Root    string
	Exclude []string
}

// setGitTracked reads git.trackedPaths: a list of {root, exclude: [patterns]}, or in the
// environment a comma-separated list of roots without excludes.
func (c *Config) setGitTracked(v any) error {
	var out []GitTracked
	switch x := v.(type) {
	case string:
		for r := range strings.SplitSeq(x, ",") {
			if r = strings.TrimSpace(r); r != "" {
				out = append(out, GitTracked{Root: r})
			}
		}
	case []any:
		for i, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, GitTracked{Root: s})
				continue
			}
			m, ok := e.(*content.Map)
			if !ok {
				return fmt.Errorf("git.trackedPaths[%d] must be a mapping with root and exclude", i)
			}
			t := GitTracked{}
			t.Root, _ = m.String("root")
			if ex, ok := m.Get("exclude"); ok {
				list, ok := ex.([]any)
				if !ok {
					return fmt.Errorf("git.trackedPaths[%d].exclude must be a list of patterns", i)
				}
				for _, p := range list {
					s, ok := p.(string)
					if !ok {
						return fmt.Errorf("git.trackedPaths[%d].exclude must be a list of patterns", i)
					}
					t.Exclude = append(t.Exclude, s)
				}
			}
			out = append(out, t)
		}
	default:
		return fmt.Errorf("must be a list of {root, exclude}")
	}
	c.Git.TrackedPaths = out
	return nil
}
