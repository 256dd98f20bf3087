package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cms/runtime/config"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func site(t *testing.T, yaml string) string {
	t.Helper()
	dir := t.TempDir()
	if yaml != "" {
		if err := os.WriteFile(filepath.Join(dir, config.FileName), []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	c, warns, err := config.Load(site(t, ""), env(nil))
	if err != nil || len(warns) != 0 {
		t.Fatalf("Load = %v, %v", warns, err)
	}
	checks := map[string]bool{
		"env development":      c.Env == "development",
		"port 3000":            c.Port == 3000,
		"graphql enabled":      c.GraphQL.Enabled,
		"introspection in dev": c.GraphQL.Introspection,
		"cp enabled":           c.CP.Enabled,
		"auth driver":          c.Auth.Driver == "password" && c.Auth.Store == "file" && c.Auth.Provider == "yaml",
		"sessions dir":         c.Auth.SessionsDir == ".sessions",
		"session duration 24h": c.Auth.SessionDuration == 24*time.Hour,
		"users path":           c.UsersPath == "users",
		"seo storage":          c.SEO.OperationalStoragePath == "storage/seo",
		"seo on":               c.SEO.ErrorTracking && c.SEO.Redirects && c.SEO.Reports,
		"static cache off":     !c.StaticCache.Enabled,
		"public base path":     c.Public.BasePath == "/api/public",
		"one default site":     len(c.Sites) == 1 && c.Sites[0].Handle == "default",
		"forms rate limit 30":  c.Forms.RateLimit == 30,
		"forms body 64 KiB":    c.Forms.MaxBodyBytes == 64<<10,
	}
	for name, ok := range checks {
		if !ok {
			t.Errorf("default %s does not hold: %+v", name, c)
		}
	}
}

func TestFileAndEnvironment(t *testing.T) {
	t.Parallel()
	dir := site(t, `
graphql:
  enabled: false
auth:
  storeConfig:
    sessionDurationMs: 3600000
sites:
  - handle: main
    url: https://example.com
    locale: de
public:
  basePath: /content
`)
	c, _, err := config.Load(dir, env(map[string]string{
		"CMS_ENV":              "production",
		"PORT":                 "8080",
		"CMS_FORMS_RATE_LIMIT": "0",
		"CMS_CP_ENABLED":       "false",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.GraphQL.Enabled || c.Auth.SessionDuration != time.Hour || c.Sites[0].URL != "https://example.com" || c.Public.BasePath != "/content" {
		t.Errorf("file values not applied: %+v", c)
	}
	if !c.Production() || c.Port != 8080 || c.Forms.RateLimit != 0 || c.CP.Enabled {
		t.Errorf("environment not applied: env=%s port=%d rate=%d cp=%v", c.Env, c.Port, c.Forms.RateLimit, c.CP.Enabled)
	}
	if c.GraphQL.Introspection {
		t.Error("introspection must be off in production unless configured")
	}
	c2, _, err := config.Load(site(t, "graphql:\n  introspection: true\n"), env(map[string]string{"NODE_ENV": "production"}))
	if err != nil || !c2.GraphQL.Introspection {
		t.Errorf("explicit introspection in production = %v, %v", c2.GraphQL.Introspection, err)
	}
	c3, _, err := config.Load("", env(map[string]string{"CMS_SITE_DIR": dir}))
	if err != nil || c3.SiteDir != dir {
		t.Errorf("CMS_SITE_DIR: %v %v", c3.SiteDir, err)
	}
}

func TestAllProblemsReportedAtOnce(t *testing.T) {
	t.Parallel()
	dir := site(t, `
graphql:
  enabled: maybe
auth:
  driver: ldap
  storeConfig:
    sessionDurationMs: -5
sites: nope
mystery: 1
`)
	_, warns, err := config.Load(dir, env(map[string]string{"PORT": "http"}))
	if err == nil {
		t.Fatal("invalid configuration accepted")
	}
	msg := err.Error()
	for _, want := range []string{"graphql.enabled", "must be true or false", "auth.driver", "ldap", "sessionDurationMs", "sites", "PORT", config.FileName} {
		if !strings.Contains(msg, want) {
			t.Errorf("error does not mention %q:\n%s", want, msg)
		}
	}
	if len(warns) != 1 || !strings.Contains(string(warns[0]), `unknown key "mystery"`) {
		t.Errorf("warnings = %v", warns)
	}
}

func TestBrokenFile(t *testing.T) {
	t.Parallel()
	_, _, err := config.Load(site(t, "graphql: [\n"), env(nil))
	if err == nil || !strings.Contains(err.Error(), "line") {
		t.Errorf("err = %v, want a parse error with a line", err)
	}
}

func TestEnvName(t *testing.T) {
	t.Parallel()
	for key, want := range map[string]string{
		"graphql.enabled":                    "CMS_GRAPHQL_ENABLED",
		"auth.storeConfig.sessionDurationMs": "CMS_AUTH_STORE_CONFIG_SESSION_DURATION_MS",
		"seo.operationalStoragePath":         "CMS_SEO_OPERATIONAL_STORAGE_PATH",
		"usersPath":                          "CMS_USERS_PATH",
		"memory.cacheMiB":                    "CMS_MEMORY_CACHE_MIB",
		"hooks.memoryMiB":                    "CMS_HOOKS_MEMORY_MIB",
	} {
		if got := config.EnvName(key); got != want {
			t.Errorf("EnvName(%s) = %s, want %s", key, got, want)
		}
	}
}
