package redirects

import (
	"fmt"
	"strings"

	"cms/content"
)

// The write-time topology rules among the enabled redirects of one site (notes 14.5).
const (
	RuleSelf      = "self-redirect"    // the destination is the source
	RuleDuplicate = "duplicate-source" // another enabled redirect has the same source
	RuleCycle     = "cycle"            // following destinations leads back to the source
	RuleChain     = "chain"            // a destination is another redirect's source
)

// TopologyDetails are the facts of a refusal: the rule and the redirects involved, the one
// being written first.
type TopologyDetails struct {
	Rule      string   `json:"rule"`
	Redirects []string `json:"redirects"`
}

// localPath is the path on site a destination points to, without query or fragment; "" for a
// URL elsewhere.
func localPath(site *content.Site, dest string) string {
	if !strings.HasPrefix(dest, "/") {
		if site == nil || site.URL == "" {
			return ""
		}
		base := strings.TrimSuffix(site.URL, "/")
		rest, ok := strings.CutPrefix(dest, base)
		if !ok || (rest != "" && rest[0] != '/' && rest[0] != '?' && rest[0] != '#') {
			return ""
		}
		dest = "/" + strings.TrimPrefix(rest, "/")
	}
	if i := strings.IndexAny(dest, "?#"); i >= 0 {
		dest = dest[:i]
	}
	if p, err := normaliseSegments(dest); err == nil {
		return p
	}
	return dest
}

// topology checks r, about to be written, against the other redirects of the store (r's
// previous version excluded). Disabled redirects take part in nothing.
func topology(r Redirect, all []Redirect, site *content.Site) error {
	if !r.Enabled {
		return nil
	}
	bySource := map[string]Redirect{}
	for _, o := range all {
		if o.Enabled && o.Site == r.Site && o.ID != r.ID {
			bySource[o.Source] = o
		}
	}
	refuse := func(rule, msg string, ids ...string) error {
		field := "destination"
		if rule == RuleDuplicate {
			field = "source"
		}
		return &content.Error{Kind: content.Invalid, Op: "redirects.topology", Code: CodeInvalid,
			Message: msg, Fields: map[string][]string{field: {msg}},
			Details: TopologyDetails{Rule: rule, Redirects: append([]string{r.ID}, ids...)}}
	}
	dest := localPath(site, r.Destination)
	if dest == r.Source {
		return refuse(RuleSelf, "A redirect may not point to its own source")
	}
	if o, ok := bySource[r.Source]; ok {
		return refuse(RuleDuplicate, fmt.Sprintf("Redirect %s already redirects %s", o.ID, r.Source), o.ID)
	}
	// A cycle: the destinations from r's lead back to its source.
	var path []string
	for p, seen := dest, map[string]bool{}; p != "" && !seen[p]; {
		seen[p] = true
		o, ok := bySource[p]
		if !ok {
			break
		}
		path = append(path, o.ID)
		if p = localPath(site, o.Destination); p == r.Source {
			return refuse(RuleCycle, fmt.Sprintf("The redirect would close a cycle through %s", strings.Join(path, ", ")), path...)
		}
	}
	if o, ok := bySource[dest]; ok {
		return refuse(RuleChain, fmt.Sprintf("The destination %s is redirected again by %s; point to its destination %s instead", dest, o.ID, o.Destination), o.ID)
	}
	for _, o := range all { // in id order, so the refusal names the same redirect every time
		if o.Enabled && o.Site == r.Site && o.ID != r.ID && localPath(site, o.Destination) == r.Source {
			return refuse(RuleChain, fmt.Sprintf("Redirect %s points to %s, so this redirect would make a chain; change %s first", o.ID, r.Source, o.ID), o.ID)
		}
	}
	return nil
}
