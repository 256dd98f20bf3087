// Package redirects is the authored-redirect domain of the SEO operations (notes 14.5): one
// YAML file per redirect under content/seo/redirects, hand-editable, read into an immutable
// per-site map so that a request costs one map lookup; the write-time topology rules; and the
// automatic 301 when an entry's public URL changes. It has no HTTP: the site group calls
// Lookup before rendering a page, the SEO API group calls the rest.
package redirects

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"cms/content"
)

// Statuses a redirect may answer with.
var Statuses = []int{301, 302, 307, 308}

// MaxFileBytes bounds one redirect file; a larger one is not read.
const MaxFileBytes = 16 << 10

// ValidID reports whether id may name a redirect (and its file).
func ValidID(id string) bool { return content.IsName(id, 128, false, "_-") }

// Redirect is one file content/seo/redirects/{id}.yaml.
type Redirect struct {
	Version     int    `json:"version" yaml:"version"`
	ID          string `json:"id" yaml:"id"`
	Site        string `json:"site" yaml:"site"`
	Source      string `json:"source" yaml:"source"`
	Destination string `json:"destination" yaml:"destination"`
	Status      int    `json:"status" yaml:"status"`
	Enabled     bool   `json:"enabled" yaml:"enabled"`
	// Revision is the SHA-256 of the file's bytes (not stored): the compare-and-swap token.
	Revision string `json:"revision,omitempty" yaml:"-"`
}

// fileKeys are the keys of a redirect file, in the order they are written.
var fileKeys = []string{"version", "id", "site", "source", "destination", "status", "enabled"}

// Revision is the revision of a file's bytes.
func Revision(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Parse reads a redirect file: strict keys, every one present, version 1. It does not
// normalise or check the values (Check does).
func Parse(b []byte) (Redirect, error) {
	var r Redirect
	if len(b) > MaxFileBytes {
		return r, fmt.Errorf("larger than %d bytes", MaxFileBytes)
	}
	var node yaml.Node
	if err := yaml.Unmarshal(b, &node); err != nil {
		return r, err
	}
	if len(node.Content) != 1 || node.Content[0].Kind != yaml.MappingNode {
		return r, errors.New("must be a mapping of version, id, site, source, destination, status, enabled")
	}
	m := node.Content[0]
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i].Value
		if !slices.Contains(fileKeys, k) {
			return r, fmt.Errorf("unknown key %q (allowed: %s)", k, strings.Join(fileKeys, ", "))
		}
		if seen[k] {
			return r, fmt.Errorf("key %q appears twice", k)
		}
		seen[k] = true
	}
	for _, k := range fileKeys {
		if !seen[k] {
			return r, fmt.Errorf("key %q is missing", k)
		}
	}
	if err := m.Decode(&r); err != nil {
		return r, err
	}
	if r.Version != 1 {
		return r, fmt.Errorf("version must be 1, not %d", r.Version)
	}
	return r, nil
}

// Marshal writes a redirect file, its keys in the documented order.
func Marshal(r Redirect) []byte {
	var b bytes.Buffer
	q := func(s string) string {
		out, _ := yaml.Marshal(s) // a string always encodes
		return strings.TrimSuffix(string(out), "\n")
	}
	fmt.Fprintf(&b, "version: 1\nid: %s\nsite: %s\nsource: %s\ndestination: %s\nstatus: %d\nenabled: %t\n",
		q(r.ID), q(r.Site), q(r.Source), q(r.Destination), r.Status, r.Enabled)
	return b.Bytes()
}

// Check normalises a redirect's source and destination in place and checks every value on
// its own (not against other redirects: see the topology rules). sites are the configured
// sites; allowed the origins of seo.allowedRedirectOrigins (the site's own origin is allowed too).
func Check(r *Redirect, sites []content.Site, allowed []string) error {
	fe := content.FieldErrors{}
	r.Version = 1
	if !ValidID(r.ID) {
		fe.Add("id", "must be 1 to 128 letters, digits, '-' or '_', starting with a letter or digit")
	}
	site := siteOf(sites, r.Site)
	if site == nil {
		fe.Add("site", fmt.Sprintf("%q is not a configured site", r.Site))
	} else if u, err := url.Parse(site.URL); err == nil && u.Host != "" {
		allowed = append(slices.Clip(allowed), Origin(u)) // the site's own origin
	}
	if s, err := NormalizePath(r.Source); err != nil {
		fe.Add("source", err.Error())
	} else {
		r.Source = s
	}
	if d, err := NormalizeDestination(r.Destination, allowed); err != nil {
		fe.Add("destination", err.Error())
	} else {
		r.Destination = d
	}
	if !slices.Contains(Statuses, r.Status) {
		fe.Add("status", "must be 301, 302, 307 or 308")
	}
	err := fe.Err("redirects.Check", "The redirect is invalid")
	if ce, ok := errors.AsType[*content.Error](err); ok {
		ce.Code = CodeInvalid
	}
	return err
}

// CodeInvalid is the error code of a refused redirect (notes 14.8).
const CodeInvalid = "SEO_INVALID_INPUT"

func siteOf(sites []content.Site, handle string) *content.Site {
	for i := range sites {
		if sites[i].Handle == handle {
			return &sites[i]
		}
	}
	return nil
}
