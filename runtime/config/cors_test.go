package config_test

import (
	"slices"
	"strings"
	"testing"

	"cms/runtime/config"
)

// TestCORSOrigins: none in production by default, localhost on any port in development, and an
// explicit setting (file or environment, even an empty one) wins; a malformed origin stops
// start-up with the key named.
func TestCORSOrigins(t *testing.T) {
	t.Parallel()
	c, _, err := config.Load(site(t, ""), env(map[string]string{"NODE_ENV": "production"}))
	if err != nil || len(c.CORS.Origins) != 0 {
		t.Errorf("production default: %q, %v; want none", c.CORS.Origins, err)
	}
	c, _, err = config.Load(site(t, ""), env(nil))
	if err != nil || !slices.Equal(c.CORS.Origins, []string{"http://localhost:*"}) || c.CORS.MaxAgeSeconds != 600 {
		t.Errorf("development default: %q %d, %v", c.CORS.Origins, c.CORS.MaxAgeSeconds, err)
	}
	c, _, err = config.Load(site(t, "cors:\n  origins: []\n"), env(nil))
	if err != nil || len(c.CORS.Origins) != 0 {
		t.Errorf("development, origins: [] = %q, %v; want none", c.CORS.Origins, err)
	}
	c, _, err = config.Load(site(t, ""), env(map[string]string{"NODE_ENV": "production", "CMS_CORS_ORIGINS": "https://a.example, https://b.example", "CMS_CORS_MAX_AGE_SECONDS": "60"}))
	if err != nil || !slices.Equal(c.CORS.Origins, []string{"https://a.example", "https://b.example"}) || c.CORS.MaxAgeSeconds != 60 {
		t.Errorf("environment: %q %d, %v", c.CORS.Origins, c.CORS.MaxAgeSeconds, err)
	}
	_, _, err = config.Load(site(t, "cors:\n  origins: [\"https://a.example/path\"]\n"), env(nil))
	if err == nil || !strings.Contains(err.Error(), "cors.origins") {
		t.Errorf("bad origin: %v", err)
	}
}
