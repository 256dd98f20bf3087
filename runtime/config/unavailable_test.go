package config_test

import (
	"strings"
	"testing"

	"cms/runtime/config"
)

// Keys whose feature is not built yet warn once when set to a value that asks for the feature,
// from the file or the environment, and stay quiet at their defaults or when switched off.
func TestUnavailableKeysWarn(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, yaml string
		env        map[string]string
		want       string // the key the one warning names; "" = no warning
	}{
		{name: "defaults", want: ""},
		{name: "seo.errorTracking is built", yaml: "seo:\n  errorTracking: true\n"},
		{name: "seo.redirects is built", yaml: "seo:\n  redirects: true\n"},
		{name: "seo.reports is built", yaml: "seo:\n  reports: true\n  reportRetentionDays: 30\n  reportSnapshotLimit: 10\n"},
		{name: "staticCache.enabled is built", yaml: "staticCache:\n  enabled: true\n"},
		{name: "seo.trailingSlash always is built", yaml: "seo:\n  trailingSlash: always\n"},
		{name: "seo.trailingSlash preserve is built", yaml: "seo:\n  trailingSlash: preserve\n"},
		{name: "seo.socialImages", yaml: "seo:\n  socialImages: true\n", want: "seo.socialImages"},
		{name: "seo.trailingSlash never", yaml: "seo:\n  trailingSlash: never\n"},
		{name: "git.enabled is built", yaml: "git:\n  enabled: true\n  statePath: state/git\n"},
		{name: "sites url (available)", yaml: "sites:\n  - handle: main\n    url: https://example.com\n"},
		{name: "environment", env: map[string]string{"CMS_STATIC_CACHE_ENABLED": "true"}},
		{name: "switched off", yaml: "seo:\n  errorTracking: false\n  redirects: false\n  reports: false\nstaticCache:\n  enabled: false\ngit:\n  enabled: false\n"},
		{name: "default state path", yaml: "git:\n  statePath: storage/git-sync\n"},
		{name: "default site", yaml: "sites:\n  - handle: default\n    url: http://localhost:3000\n    locale: de\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, warns, err := config.Load(site(t, c.yaml), env(c.env))
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				if len(warns) != 0 {
					t.Errorf("warnings = %q, want none", warns)
				}
				return
			}
			if len(warns) != 1 || !strings.HasPrefix(string(warns[0]), c.want) || !strings.Contains(string(warns[0]), "not available yet; ignored") {
				t.Errorf("warnings = %q, want one: %s...: not available yet; ignored", warns, c.want)
			}
		})
	}
}
