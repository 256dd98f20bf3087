package config

import "testing"

// Every row of the unavailable table names a key the configuration accepts and says what the
// key would do.
func TestUnavailableTable(t *testing.T) {
	t.Parallel()
	c := Default()
	keys := c.keys()
	for _, u := range unavailable() {
		if _, ok := keys[u.key]; !ok {
			t.Errorf("unavailable key %q is not a configuration key", u.key)
		}
		if u.why == "" {
			t.Errorf("unavailable key %q does not say what it would do", u.key)
		}
	}
}
