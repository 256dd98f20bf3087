package config_test

import (
	"strings"
	"testing"

	"cms/runtime/config"
)

// TestDeploymentKeys covers the keys the Lambda runner reads: the index snapshot, the
// generation watch mode and the base path.
func TestDeploymentKeys(t *testing.T) {
	t.Parallel()
	c, _, err := config.Load(site(t, ""), env(nil))
	if err != nil || !c.IndexSnapshot || c.BasePath != "" {
		t.Fatalf("defaults: indexSnapshot=%v basePath=%q err=%v, want true, \"\", nil", c.IndexSnapshot, c.BasePath, err)
	}
	c, _, err = config.Load(site(t, "basePath: /cms\n"), env(map[string]string{"CMS_WATCH": "generation", "CMS_INDEX_SNAPSHOT": "true"}))
	if err != nil || c.BasePath != "/cms" || c.Watch != "generation" {
		t.Fatalf("basePath=%q watch=%q err=%v", c.BasePath, c.Watch, err)
	}
	for _, tt := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"generation without snapshot", map[string]string{"CMS_WATCH": "generation", "CMS_INDEX_SNAPSHOT": "false"}, "generation needs indexSnapshot"},
		{"unknown watch mode", map[string]string{"CMS_WATCH": "inotify"}, "must be notify, poll, none or generation"},
		{"base path without slash", map[string]string{"CMS_BASE_PATH": "cms"}, "basePath: must be empty or start with /"},
		{"base path with trailing slash", map[string]string{"CMS_BASE_PATH": "/cms/"}, "basePath: must be empty or start with /"},
		{"snapshot not a boolean", map[string]string{"CMS_INDEX_SNAPSHOT": "maybe"}, "CMS_INDEX_SNAPSHOT"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := config.Load(site(t, ""), env(tt.env))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}
