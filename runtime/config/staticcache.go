package config

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"cms/content"
)

// CacheRule purges URLs (path globs, "*" = any characters) whenever an entry of Collection
// changes: for pages whose reads the cache cannot record (an upstream frontend's).
type CacheRule struct {
	Collection string
	URLs       []string
}

// Limits of the static cache's lists.
const (
	MaxCacheExcludes = 200
	MaxCacheRules    = 200
	MaxCacheRuleURLs = 100
)

// setCacheRules accepts a list of {collection, urls} ("trigger" is accepted for collection, as
// existing sites spell it), or, from the environment, "blog:/blog*,/;news:/news*".
func (c *Config) setCacheRules(v any) error {
	var rules []CacheRule
	switch x := v.(type) {
	case string:
		for part := range strings.SplitSeq(x, ";") {
			if part = strings.TrimSpace(part); part == "" {
				continue
			}
			coll, urls, _ := strings.Cut(part, ":")
			r := CacheRule{Collection: strings.TrimSpace(coll)}
			for u := range strings.SplitSeq(urls, ",") {
				if u = strings.TrimSpace(u); u != "" {
					r.URLs = append(r.URLs, u)
				}
			}
			rules = append(rules, r)
		}
	case []any:
		for i, e := range x {
			m, ok := e.(*content.Map)
			if !ok {
				return fmt.Errorf("[%d] must be a mapping with collection and urls", i)
			}
			var r CacheRule
			r.Collection, _ = m.String("collection")
			if r.Collection == "" {
				r.Collection, _ = m.String("trigger")
			}
			switch u := m.Value("urls").(type) {
			case string:
				r.URLs = []string{u}
			case []any:
				for _, s := range u {
					str, ok := s.(string)
					if !ok {
						return fmt.Errorf("[%d].urls must be a list of paths", i)
					}
					r.URLs = append(r.URLs, str)
				}
			default:
				return fmt.Errorf("[%d].urls must be a list of paths", i)
			}
			rules = append(rules, r)
		}
	default:
		return fmt.Errorf("must be a list of {collection, urls}")
	}
	c.StaticCache.InvalidationRules = rules
	return nil
}

func (c *Config) validateStaticCache() []error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", key, fmt.Sprintf(format, args...)))
	}
	sc := &c.StaticCache
	switch sc.Driver {
	case "memory", "file":
	case "application": // the name existing sites use for the in-memory driver
		sc.Driver = "memory"
	default:
		bad("staticCache.driver", "must be memory or file, not %q", sc.Driver)
	}
	if p := sc.StoragePath; p == "" || !filepath.IsAbs(p) && strings.HasPrefix(filepath.Clean(p), "..") {
		bad("staticCache.storagePath", "must be a folder inside the site folder or an absolute path, not %q", p)
	} else if !filepath.IsAbs(p) {
		// Its own folder: clearing the cache must never reach content, definitions or users.
		cp := filepath.Clean(p)
		for _, other := range []string{c.ContentPath, c.ResourcesPath, c.UsersPath, c.AssetsPath} {
			o := filepath.Clean(other)
			if cp == "." || cp == o || strings.HasPrefix(cp, o+string(filepath.Separator)) || strings.HasPrefix(o, cp+string(filepath.Separator)) {
				bad("staticCache.storagePath", "must be a folder of its own, not %q (it overlaps %s)", p, other)
				break
			}
		}
	}
	if sc.MaxBytes < 1<<20 || sc.MaxBytes > 1<<40 {
		bad("staticCache.maxBytes", "must be between 1048576 (1 MiB) and 1099511627776 (1 TiB), not %d", sc.MaxBytes)
	}
	switch sc.QueryStrings {
	case "ignore", "separate":
	default:
		bad("staticCache.queryStrings", "must be ignore or separate, not %q", sc.QueryStrings)
	}
	if len(sc.Exclude) > MaxCacheExcludes {
		bad("staticCache.exclude", "may list at most %d globs, not %d", MaxCacheExcludes, len(sc.Exclude))
	}
	for i, g := range sc.Exclude {
		if !pathGlob(g) {
			bad(fmt.Sprintf("staticCache.exclude[%d]", i), "must be a path glob starting with / or *, not %q", g)
		}
	}
	if u := c.Site.Upstream; u != "" {
		if _, err := ParseUpstream(u); err != nil {
			bad("site.upstream", "%v", err)
		}
	}
	if w := sc.PurgeWebhook; w != "" {
		u, err := url.Parse(w)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Fragment != "" {
			bad("staticCache.purgeWebhook", "must be an absolute http(s) URL, not %q", w)
		}
	}
	if len(sc.InvalidationRules) > MaxCacheRules {
		bad("staticCache.invalidationRules", "may list at most %d rules, not %d", MaxCacheRules, len(sc.InvalidationRules))
	}
	for i, r := range sc.InvalidationRules {
		key := fmt.Sprintf("staticCache.invalidationRules[%d]", i)
		if !content.ValidHandle(r.Collection) {
			bad(key+".collection", "must be a collection handle, not %q", r.Collection)
		}
		if len(r.URLs) == 0 || len(r.URLs) > MaxCacheRuleURLs {
			bad(key+".urls", "must list 1 to %d path globs", MaxCacheRuleURLs)
		}
		for j, g := range r.URLs {
			if !pathGlob(g) {
				bad(fmt.Sprintf("%s.urls[%d]", key, j), "must be a path glob starting with / or *, not %q", g)
			}
		}
	}
	return errs
}

// pathGlob reports whether g is a path glob the cache can match: starting with / or *, of
// printable characters, at most 512 bytes.
func pathGlob(g string) bool {
	if g == "" || len(g) > 512 || g[0] != '/' && g[0] != '*' {
		return false
	}
	for _, r := range g {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

// ParseUpstream reads site.upstream: an http(s) origin, with no credentials, path, query or
// fragment (every page path is the request's own).
func ParseUpstream(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("must be an http(s) origin such as http://127.0.0.1:3001, not %q", s)
	}
	u.Path = ""
	return u, nil
}
