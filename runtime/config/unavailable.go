package config

import "fmt"

// An unavailableKey is a key the configuration accepts (the spec defines it and existing sites
// set it) whose feature is not built yet.
type unavailableKey struct {
	key  string
	why  string               // what the key would do
	asks func(c *Config) bool // whether the value asks for the feature
}

// unavailable is the table of accepted keys that do nothing yet. Setting one (in the file or
// the environment) to a value that asks for its feature is a warning, so a site is never
// silently without something it configured. The issue that builds a feature deletes its row.
func unavailable() []unavailableKey {
	return []unavailableKey{
		{"seo.socialImages", "generated social images", func(c *Config) bool { return c.SEO.SocialImages }},
	}
}

// unavailableWarnings warns about each key of the unavailable table that was set and asks for
// its feature.
func unavailableWarnings(c *Config, set map[string]bool) []Warning {
	var out []Warning
	for _, u := range unavailable() {
		if set[u.key] && u.asks(c) {
			out = append(out, Warning(fmt.Sprintf("%s: not available yet; ignored (%s)", u.key, u.why)))
		}
	}
	return out
}
