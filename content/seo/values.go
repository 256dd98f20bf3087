package seo

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"cms/content"
)

// Source kinds of a title, description, canonical, social image or image alt.
const (
	KindInherit  = "inherit"  // keep what an earlier layer said
	KindDisabled = "disabled" // suppress the value
	KindLiteral  = "literal"  // Value as written
	KindField    = "field"    // the record's field named Value
	KindTemplate = "template" // Value with {field} tokens replaced by the record's fields
)

// Limits of SeoValues (notes 14.3).
const (
	MaxLiteral     = 2000     // characters of a literal, single line
	MaxTemplate    = 4000     // characters of a template
	MaxCustomDepth = 8        // nesting of jsonLd.custom
	MaxCustomKeys  = 200      // keys of jsonLd.custom, counted through every level
	MaxCustomBytes = 32 << 10 // bytes of one string in jsonLd.custom
	maxHandleLen   = 100      // a field handle of a field source
	maxSocialName  = 100      // twitterSite, twitterCreator
	maxSiteName    = MaxLiteral
)

// Source says where a value comes from. A nil *Source is the same as inherit.
type Source struct {
	Kind  string `json:"kind"`
	Value string `json:"value,omitempty"`
}

// Robots are the robots directives of a layer; "" and nil are "not said here".
type Robots struct {
	Indexing     string // index | noindex
	Following    string // follow | nofollow
	NoArchive    *bool
	NoImageIndex *bool
	NoSnippet    *bool
}

// Social is a layer's Open Graph and Twitter settings.
type Social struct {
	Image          *Source // an asset path, a site path or an absolute http(s) URL
	ImageAlt       *Source
	TwitterCard    string // summary | summary_large_image
	TwitterSite    string
	TwitterCreator string
}

// Sitemap is a layer's sitemap settings.
type Sitemap struct {
	Enabled         *bool
	Priority        *float64 // 0..1
	ChangeFrequency string   // always|hourly|daily|weekly|monthly|yearly|never
}

// JSONLD is a layer's structured-data settings.
type JSONLD struct {
	Enabled *bool
	Type    string       // WebPage|Article|Organization|Person|BreadcrumbList|custom
	Custom  *content.Map // merged over the generated document; the whole document for type custom
}

// Values is one layer of the cascade: a site or section document's `seo:` value or a record's
// `seo:` key (SeoValues of notes 14.3). Unset parts inherit from the layer before.
type Values struct {
	Enabled       *bool
	Title         *Source
	Description   *Source
	Canonical     *Source
	TitleTemplate *Source // a template with {title} and {field} tokens the title goes through
	TitleSuffix   *Source // appended as " | " + suffix
	SiteName      *Source // og:site_name and the JSON-LD publisher name
	Robots        Robots
	Social        Social
	Sitemap       Sitemap
	JSONLD        JSONLD
}

// ParseValues validates v, the value of a `seo:` key (a mapping), strictly: an unknown key, a
// value of the wrong type or one over its limit is an error naming the key. A nil v is an empty
// layer.
func ParseValues(v any) (*Values, error) {
	out := &Values{}
	if v == nil {
		return out, nil
	}
	m, ok := v.(*content.Map)
	if !ok {
		return nil, errors.New("seo must be a mapping")
	}
	var errs []error
	bad := func(key string, err error) {
		if err != nil {
			errs = append(errs, fmt.Errorf("seo.%s: %w", key, err))
		}
	}
	for _, k := range m.Keys() {
		val := m.Value(k)
		var err error
		switch k {
		case "enabled":
			out.Enabled, err = optBool(val)
		case "title":
			out.Title, err = parseSource(val, false)
		case "description":
			out.Description, err = parseSource(val, false)
		case "canonical":
			out.Canonical, err = parseSource(val, false)
		case "titleTemplate":
			out.TitleTemplate, err = parseSource(val, true)
		case "titleSuffix":
			out.TitleSuffix, err = parseSource(val, false)
		case "siteName":
			out.SiteName, err = parseSource(val, false)
		case "robots":
			err = parseRobots(val, &out.Robots, bad)
		case "social":
			err = parseSocial(val, &out.Social, bad)
		case "sitemap":
			err = parseSitemap(val, &out.Sitemap, bad)
		case "jsonLd":
			err = parseJSONLD(val, &out.JSONLD, bad)
		default:
			err = fmt.Errorf("unknown key (known: %s)", strings.Join(valueKeys, ", "))
		}
		bad(k, err)
	}
	if len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	return out, nil
}

// joinErrors joins problems on one line, as cms check and the log print them.
func joinErrors(errs []error) error {
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return errors.New(strings.Join(msgs, "; "))
}

var valueKeys = []string{"enabled", "title", "description", "canonical", "titleTemplate", "titleSuffix", "siteName", "robots", "social", "sitemap", "jsonLd"}

// parseSource reads a source: {kind, value} or a plain string (a literal; a template when it is
// a titleTemplate). A null is inherit.
func parseSource(v any, plainIsTemplate bool) (*Source, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		s := &Source{Kind: KindLiteral, Value: x}
		if plainIsTemplate {
			s.Kind = KindTemplate
		}
		return s, checkSource(s)
	case *content.Map:
		s := &Source{}
		for _, k := range x.Keys() {
			switch k {
			case "kind":
				kind, ok := x.Value(k).(string)
				if !ok {
					return nil, errors.New("kind must be a string")
				}
				s.Kind = kind
			case "value":
				switch val := x.Value(k).(type) {
				case string:
					s.Value = val
				case nil:
				default:
					return nil, errors.New("value must be a string")
				}
			default:
				return nil, fmt.Errorf("unknown key %q in a source (known: kind, value)", k)
			}
		}
		if s.Kind == "" {
			return nil, errors.New("a source needs a kind (inherit, disabled, literal, field or template)")
		}
		if s.Kind == KindInherit {
			return nil, nil
		}
		return s, checkSource(s)
	}
	return nil, errors.New("must be a string or a source {kind, value}")
}

// isFieldHandle reports whether s is a field name a source may read: a letter or _ followed by
// letters, digits and _ (checked by hand: it runs for every {token} of every page).
func isFieldHandle(s string) bool {
	if s == "" || len(s) > maxHandleLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

func checkSource(s *Source) error {
	switch s.Kind {
	case KindDisabled:
		if s.Value != "" {
			return errors.New("a disabled source has no value")
		}
	case KindLiteral:
		if strings.ContainsAny(s.Value, "\r\n") {
			return errors.New("a literal must be a single line")
		}
		if utf8.RuneCountInString(s.Value) > MaxLiteral {
			return fmt.Errorf("a literal may have at most %d characters", MaxLiteral)
		}
	case KindField:
		if !isFieldHandle(s.Value) {
			return fmt.Errorf("a field source needs a field handle as its value, not %q", s.Value)
		}
	case KindTemplate:
		if s.Value == "" {
			return errors.New("a template source needs a value")
		}
		if utf8.RuneCountInString(s.Value) > MaxTemplate {
			return fmt.Errorf("a template may have at most %d characters", MaxTemplate)
		}
	default:
		return fmt.Errorf("kind must be inherit, disabled, literal, field or template, not %q", s.Kind)
	}
	if !utf8.ValidString(s.Value) {
		return errors.New("value must be valid UTF-8")
	}
	return nil
}

func optBool(v any) (*bool, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case bool:
		return &x, nil
	}
	return nil, errors.New("must be true or false")
}

func mapping(v any) (*content.Map, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case *content.Map:
		return x, nil
	}
	return nil, errors.New("must be a mapping")
}

func oneOf(v any, allowed ...string) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		for _, a := range allowed {
			if x == a {
				return x, nil
			}
		}
		return "", fmt.Errorf("must be one of %s, not %q", strings.Join(allowed, ", "), x)
	}
	return "", fmt.Errorf("must be one of %s", strings.Join(allowed, ", "))
}

func parseRobots(v any, r *Robots, bad func(string, error)) error {
	m, err := mapping(v)
	if err != nil {
		return err
	}
	for _, k := range m.Keys() {
		val := m.Value(k)
		var err error
		switch k {
		case "indexing":
			r.Indexing, err = oneOf(val, "index", "noindex")
		case "following":
			r.Following, err = oneOf(val, "follow", "nofollow")
		case "noarchive":
			r.NoArchive, err = optBool(val)
		case "noimageindex":
			r.NoImageIndex, err = optBool(val)
		case "nosnippet":
			r.NoSnippet, err = optBool(val)
		default:
			err = errors.New("unknown key (known: indexing, following, noarchive, noimageindex, nosnippet)")
		}
		bad("robots."+k, err)
	}
	return nil
}

func parseSocial(v any, s *Social, bad func(string, error)) error {
	m, err := mapping(v)
	if err != nil {
		return err
	}
	for _, k := range m.Keys() {
		val := m.Value(k)
		var err error
		switch k {
		case "image":
			s.Image, err = parseSource(val, false)
		case "imageAlt":
			s.ImageAlt, err = parseSource(val, false)
		case "twitterCard":
			s.TwitterCard, err = oneOf(val, "summary", "summary_large_image")
		case "twitterSite":
			s.TwitterSite, err = twitterName(val)
		case "twitterCreator":
			s.TwitterCreator, err = twitterName(val)
		default:
			err = errors.New("unknown key (known: image, imageAlt, twitterCard, twitterSite, twitterCreator)")
		}
		bad("social."+k, err)
	}
	return nil
}

func twitterName(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		if len(x) > maxSocialName || !socialName(x) {
			return "", fmt.Errorf("must be an account name such as @example, not %q", x)
		}
		if !strings.HasPrefix(x, "@") {
			x = "@" + x
		}
		return x, nil
	}
	return "", errors.New("must be an account name such as @example")
}

func parseSitemap(v any, s *Sitemap, bad func(string, error)) error {
	m, err := mapping(v)
	if err != nil {
		return err
	}
	for _, k := range m.Keys() {
		val := m.Value(k)
		var err error
		switch k {
		case "enabled":
			s.Enabled, err = optBool(val)
		case "priority":
			var p float64
			switch x := val.(type) {
			case nil:
				continue
			case int64:
				p = float64(x)
			case float64:
				p = x
			default:
				err = errors.New("must be a number from 0 to 1")
			}
			if err == nil && (math.IsNaN(p) || p < 0 || p > 1) {
				err = fmt.Errorf("must be a number from 0 to 1, not %v", p)
			}
			if err == nil {
				s.Priority = &p
			}
		case "changeFrequency":
			s.ChangeFrequency, err = oneOf(val, "always", "hourly", "daily", "weekly", "monthly", "yearly", "never")
		default:
			err = errors.New("unknown key (known: enabled, priority, changeFrequency)")
		}
		bad("sitemap."+k, err)
	}
	return nil
}

func parseJSONLD(v any, j *JSONLD, bad func(string, error)) error {
	m, err := mapping(v)
	if err != nil {
		return err
	}
	for _, k := range m.Keys() {
		val := m.Value(k)
		var err error
		switch k {
		case "enabled":
			j.Enabled, err = optBool(val)
		case "type":
			j.Type, err = oneOf(val, "WebPage", "Article", "Organization", "Person", "BreadcrumbList", "custom")
		case "custom":
			var c *content.Map
			if c, err = mapping(val); err == nil && c != nil {
				keys := 0
				if err = checkCustom(c, 1, &keys); err == nil {
					j.Custom = c
				}
			}
		default:
			err = errors.New("unknown key (known: enabled, type, custom)")
		}
		bad("jsonLd."+k, err)
	}
	if j.Type == "custom" && j.Custom == nil {
		bad("jsonLd.custom", errors.New("type custom needs a custom object"))
	}
	return nil
}

// checkCustom enforces the limits of a custom JSON-LD object: depth, total keys, string size.
func checkCustom(v any, depth int, keys *int) error {
	if depth > MaxCustomDepth {
		return fmt.Errorf("may nest at most %d levels", MaxCustomDepth)
	}
	switch x := v.(type) {
	case *content.Map:
		*keys += x.Len()
		if *keys > MaxCustomKeys {
			return fmt.Errorf("may have at most %d keys", MaxCustomKeys)
		}
		ks := append([]string(nil), x.Keys()...)
		sort.Strings(ks)
		for _, k := range ks {
			if len(k) > MaxCustomBytes {
				return fmt.Errorf("a key may have at most %d bytes", MaxCustomBytes)
			}
			if err := checkCustom(x.Value(k), depth+1, keys); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range x {
			if err := checkCustom(e, depth+1, keys); err != nil {
				return err
			}
		}
	case string:
		if len(x) > MaxCustomBytes {
			return fmt.Errorf("a string may have at most %d bytes", MaxCustomBytes)
		}
		if !utf8.ValidString(x) {
			return errors.New("strings must be valid UTF-8")
		}
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return errors.New("numbers must be finite")
		}
	case nil, bool, int64:
	default:
		return fmt.Errorf("unsupported value of type %T", v)
	}
	return nil
}

// legacyValues reads the flat keys older sites wrote in front matter: meta_title,
// meta_description, og_image, canonical_url (literals) and no_index: true. Values of the wrong
// type are ignored, as they were before.
func legacyValues(d *content.Map) *Values {
	v := &Values{}
	lit := func(key string) *Source {
		s, ok := d.String(key)
		if !ok || strings.TrimSpace(s) == "" {
			return nil
		}
		src := &Source{Kind: KindLiteral, Value: strings.TrimSpace(s)}
		if checkSource(src) != nil {
			return nil
		}
		return src
	}
	v.Title = lit("meta_title")
	v.Description = lit("meta_description")
	v.Social.Image = lit("og_image")
	v.Canonical = lit("canonical_url")
	if b, ok := d.Value("no_index").(bool); ok && b {
		v.Robots.Indexing = "noindex"
	}
	return v
}

// socialName reports whether s is an account name: an optional @, then 1 to 50 ASCII letters,
// digits or underscores.
func socialName(s string) bool {
	s = strings.TrimPrefix(s, "@")
	return len(s) >= 1 && len(s) <= 50 && strings.IndexFunc(s, func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_')
	}) < 0
}
