package wire_test

import (
	"testing"

	"cms/content/fsstore"
	"cms/runtime/config"
	"cms/runtime/wire"
)

// StoreOptions is the one mapping of the configuration to the store, shared by the server and
// the CLI commands.
func TestStoreOptions(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		edit func(*config.Config)
		want fsstore.Options
	}{
		{"defaults", func(*config.Config) {}, fsstore.Options{Dir: "/site", ContentDir: "content", ResourcesDir: "resources",
			UsersDir: "users", AssetsDir: "public/assets", Watch: fsstore.WatchNotify, Snapshot: true}},
		{"every folder moved, read-only, polled, no snapshot", func(c *config.Config) {
			c.ContentPath, c.ResourcesPath, c.UsersPath, c.AssetsPath = "data", "defs", "people", "files"
			c.ReadOnly, c.Watch, c.IndexSnapshot = true, fsstore.WatchPoll, false
		}, fsstore.Options{Dir: "/site", ContentDir: "data", ResourcesDir: "defs", UsersDir: "people", AssetsDir: "files",
			ReadOnly: true, Watch: fsstore.WatchPoll}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := config.Default()
			cfg.SiteDir = "/site"
			tt.edit(&cfg)
			got := wire.StoreOptions(cfg)
			if got.Dir != tt.want.Dir || got.ContentDir != tt.want.ContentDir || got.ResourcesDir != tt.want.ResourcesDir ||
				got.UsersDir != tt.want.UsersDir || got.AssetsDir != tt.want.AssetsDir || got.ReadOnly != tt.want.ReadOnly ||
				got.Watch != tt.want.Watch || got.Snapshot != tt.want.Snapshot {
				t.Errorf("StoreOptions =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}
