package config_test

import (
	"reflect"
	"strings"
	"testing"

	"cms/runtime/config"
)

func TestStaticCacheKeys(t *testing.T) {
	t.Parallel()
	c, _, err := config.Load(site(t, ""), env(nil))
	if err != nil {
		t.Fatal(err)
	}
	sc := c.StaticCache
	if sc.Enabled || sc.Driver != "memory" || sc.StoragePath != "storage/static-cache" || sc.MaxBytes != 64<<20 || sc.QueryStrings != "ignore" || sc.PurgeWebhook != "" {
		t.Errorf("defaults %+v", sc)
	}
	yaml := `staticCache:
  driver: application
  storagePath: /var/cache/site
  maxBytes: 10485760
  exclude: ["/account*", "*/preview"]
  queryStrings: separate
  purgeWebhook: https://cdn.example.com/purge
  invalidationRules:
    - collection: blog
      urls: ["/", "/blog*"]
    - trigger: news
      urls: /news*
`
	c, _, err = config.Load(site(t, yaml), env(nil))
	if err != nil {
		t.Fatal(err)
	}
	sc = c.StaticCache
	want := []config.CacheRule{{Collection: "blog", URLs: []string{"/", "/blog*"}}, {Collection: "news", URLs: []string{"/news*"}}}
	if sc.Driver != "memory" || sc.StoragePath != "/var/cache/site" || sc.MaxBytes != 10<<20 || len(sc.Exclude) != 2 || sc.QueryStrings != "separate" ||
		sc.PurgeWebhook != "https://cdn.example.com/purge" || !reflect.DeepEqual(sc.InvalidationRules, want) {
		t.Errorf("file: %+v", sc)
	}
	c, _, err = config.Load(site(t, ""), env(map[string]string{
		"CMS_STATIC_CACHE_DRIVER":             "file",
		"CMS_STATIC_CACHE_EXCLUDE":            "/a*, /b",
		"CMS_STATIC_CACHE_INVALIDATION_RULES": "blog:/,/blog*;news:/news*",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if sc := c.StaticCache; sc.Driver != "file" || !reflect.DeepEqual(sc.Exclude, []string{"/a*", "/b"}) || !reflect.DeepEqual(sc.InvalidationRules, want) {
		t.Errorf("environment: %+v", sc)
	}
}

func TestStaticCacheValidation(t *testing.T) {
	t.Parallel()
	for yaml, want := range map[string]string{
		"staticCache:\n  driver: redis\n":                                               "staticCache.driver",
		"staticCache:\n  storagePath: ../outside\n":                                     "staticCache.storagePath",
		"staticCache:\n  storagePath: .\n":                                              "staticCache.storagePath",
		"staticCache:\n  storagePath: content/cache\n":                                  "staticCache.storagePath",
		"staticCache:\n  maxBytes: 10\n":                                                "staticCache.maxBytes",
		"staticCache:\n  queryStrings: keep\n":                                          "staticCache.queryStrings",
		"staticCache:\n  exclude: [blog]\n":                                             "staticCache.exclude[0]",
		"staticCache:\n  purgeWebhook: ftp://x\n":                                       "staticCache.purgeWebhook",
		"staticCache:\n  invalidationRules:\n    - collection: ../x\n      urls: [/]\n": "staticCache.invalidationRules[0].collection",
		"staticCache:\n  invalidationRules:\n    - collection: blog\n      urls: []\n":  "staticCache.invalidationRules[0].urls",
		"staticCache:\n  invalidationRules: yes\n":                                      "staticCache.invalidationRules",
	} {
		_, _, err := config.Load(site(t, yaml), env(nil))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want one naming %s", yaml, err, want)
		}
	}
}

// site.upstream takes an http(s) origin only: the page path is always the request's own.
func TestSiteUpstream(t *testing.T) {
	t.Parallel()
	c, _, err := config.Load(site(t, "site:\n  upstream: http://127.0.0.1:3001\n"), env(nil))
	if err != nil || c.Site.Upstream != "http://127.0.0.1:3001" {
		t.Fatalf("upstream %q, %v", c.Site.Upstream, err)
	}
	for _, bad := range []string{"127.0.0.1:3001", "ftp://x", "http://u:p@x", "http://x/app", "http://x?q=1", "http://x#f"} {
		if _, _, err := config.Load(site(t, "site:\n  upstream: '"+bad+"'\n"), env(nil)); err == nil || !strings.Contains(err.Error(), "site.upstream") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
