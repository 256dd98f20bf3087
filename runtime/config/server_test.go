package config_test

import (
	"strings"
	"testing"
	"time"

	"cms/runtime/config"
)

// TestServerKeys covers the connection caps and the body-read timeout of `cms serve`.
func TestServerKeys(t *testing.T) {
	t.Parallel()
	c, _, err := config.Load(site(t, ""), env(nil))
	if err != nil || c.Server.MaxConnections != 2048 || c.Server.MaxConnectionsPerAddress != 256 || c.Server.BodyTimeout != 10*time.Second {
		t.Fatalf("defaults = %+v, %v", c.Server, err)
	}
	c, _, err = config.Load(site(t, "server:\n  maxConnections: 100\n  bodyTimeoutMs: 2500\n"),
		env(map[string]string{"CMS_SERVER_MAX_CONNECTIONS_PER_ADDRESS": "0"}))
	if err != nil || c.Server.MaxConnections != 100 || c.Server.MaxConnectionsPerAddress != 0 || c.Server.BodyTimeout != 2500*time.Millisecond {
		t.Fatalf("set = %+v, %v", c.Server, err)
	}
	for _, bad := range []map[string]string{
		{"CMS_SERVER_MAX_CONNECTIONS": "-1"},
		{"CMS_SERVER_MAX_CONNECTIONS_PER_ADDRESS": "many"},
		{"CMS_SERVER_BODY_TIMEOUT_MS": "0"},
	} {
		if _, _, err := config.Load(site(t, ""), env(bad)); err == nil || !strings.Contains(err.Error(), "CMS_SERVER_") {
			t.Errorf("%v: err = %v", bad, err)
		}
	}
}
