package config_test

import (
	"strings"
	"testing"

	"cms/runtime/config"
)

// Sites are checked at start-up (notes 14.1); every problem is reported at once.
func TestSites(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, yaml string
		errs       []string // each must appear in the error; none = valid
		check      func(t *testing.T, c config.Config)
	}{
		{name: "first is the default", yaml: "sites:\n  - handle: main\n    url: https://example.com/\n    locale: en-GB\n  - handle: de\n    url: https://example.com/de\n    locale: de\n",
			check: func(t *testing.T, c config.Config) {
				if !c.Sites[0].Default || c.Sites[1].Default || c.Sites[0].URL != "https://example.com" {
					t.Errorf("sites = %+v", c.Sites)
				}
			}},
		{name: "marked default", yaml: "sites:\n  - handle: main\n    url: https://example.com\n  - handle: shop\n    url: https://shop.example.com\n    default: true\n",
			check: func(t *testing.T, c config.Config) {
				if c.Sites[0].Default || !c.Sites[1].Default {
					t.Errorf("sites = %+v", c.Sites)
				}
				if cs := c.ContentSites(); cs[1].Handle != "shop" || !cs[1].Default || cs[0].Locale != "en" {
					t.Errorf("content sites = %+v", cs)
				}
			}},
		{name: "two defaults", yaml: "sites:\n  - handle: a\n    url: https://a.example\n    default: true\n  - handle: b\n    url: https://b.example\n    default: true\n",
			errs: []string{"exactly one site may be the default"}},
		{name: "bad values", yaml: "sites:\n  - handle: Main_Site\n    url: ftp://example.com\n    locale: english!\n  - handle: b\n    url: https://user:pw@example.com\n  - handle: c\n    url: https://example.com/?q=1\n  - handle: c\n    url: https://example.com/#top\n  - handle: e\n    url: example.com\n",
			errs: []string{"sites[0].handle", "sites[0].url", "sites[0].locale", "sites[1].url: must not hold a user name", "sites[2].url: must not have a query",
				"sites[3].handle: \"c\" is used twice", "sites[3].url: must not have a query or fragment", "sites[4].url: must be an absolute"}},
		{name: "default not a boolean", yaml: "sites:\n  - handle: f\n    url: https://x.example\n    default: maybe\n", errs: []string{"sites[0].default must be true or false"}},
		{name: "same URL twice", yaml: "sites:\n  - handle: a\n    url: https://example.com\n  - handle: b\n    url: https://EXAMPLE.com/\n",
			errs: []string{"sites[1].url: \"https://EXAMPLE.com\" is used twice"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cfg, _, err := config.Load(site(t, c.yaml), env(nil))
			if len(c.errs) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				c.check(t, cfg)
				return
			}
			if err == nil {
				t.Fatalf("no error; want %v", c.errs)
			}
			for _, want := range c.errs {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q\n does not say %q", err, want)
				}
			}
		})
	}
}
