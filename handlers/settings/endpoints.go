package settings

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"cms/content"
	"cms/handlers/web"
)

// MaxSiteNameLen bounds site_name in characters.
const MaxSiteNameLen = 200

var (
	localeRE = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z]{4})?(-(?:[A-Za-z]{2}|[0-9]{3}))?$`)
	zoneRE   = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+)*$`)
)

// withDefaults returns the settings as clients see them: the known keys first (their defaults
// when missing), then the other keys in file order.
func withDefaults(m *content.Map) *content.Map {
	out := content.NewMap(3 + m.Len())
	for _, kv := range [...][2]string{{"site_name", DefaultSiteName}, {"locale", DefaultLocale}, {"timezone", DefaultTimezone}} {
		if v, ok := m.Get(kv[0]); ok && v != nil {
			out.Set(kv[0], v)
		} else {
			out.Set(kv[0], kv[1])
		}
	}
	for _, k := range m.Keys() {
		if _, ok := out.Get(k); !ok {
			out.Set(k, m.Value(k))
		}
	}
	return out
}

// GET /api/settings: the site settings with defaults filled in, with an ETag.
func (a *api) get(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "settings", "view", ""); err != nil {
		return err
	}
	doc, err := a.Store.Settings()
	if err != nil {
		return err
	}
	w.Header().Set("ETag", `"`+doc.Hash+`"`)
	w.Header().Set("Cache-Control", "private, no-cache")
	web.WriteJSON(w, http.StatusOK, web.Data{Data: withDefaults(doc.Data)})
	return nil
}

// PUT /api/settings: merge the given keys into the settings.
func (a *api) put(w http.ResponseWriter, r *http.Request) error {
	const op = "settings.put"
	who, err := web.Require(a.Auth, r, "settings", "edit", "")
	if err != nil {
		return err
	}
	want, err := web.IfMatch(r)
	if err != nil {
		return err
	}
	patch := content.NewMap(0)
	if err := web.DecodeJSON(w, r, a.BodyLimit, patch); err != nil {
		return err
	}
	if err := check(patch).Err(op, "Settings are invalid"); err != nil {
		return err
	}
	doc, err := a.storeFor(who).UpdateSettings(want, func(cur *content.Map) (*content.Map, error) {
		for _, k := range patch.Keys() {
			if v := patch.Value(k); v == nil {
				cur.Delete(k)
			} else {
				cur.Set(k, v)
			}
		}
		return cur, nil
	})
	if err != nil {
		return err
	}
	w.Header().Set("ETag", `"`+doc.Hash+`"`)
	web.WriteJSON(w, http.StatusOK, web.Data{Data: withDefaults(doc.Data)})
	return nil
}

// check validates the keys of a PUT body; null values (removals) are always fine.
func check(m *content.Map) content.FieldErrors {
	fe := content.FieldErrors{}
	for _, k := range m.Keys() {
		v := m.Value(k)
		if !content.ValidHandle(k) {
			fe.Add(k, "Invalid setting name: use letters, digits, '-' and '_', starting with a letter or digit")
			continue
		}
		if v == nil {
			continue
		}
		s, isString := v.(string)
		switch k {
		case "site_name":
			switch {
			case !isString:
				fe.Add(k, "Must be a string")
			case strings.TrimSpace(s) == "":
				fe.Add(k, "This field is required")
			case utf8.RuneCountInString(s) > MaxSiteNameLen:
				fe.Add(k, fmt.Sprintf("Must be at most %d characters", MaxSiteNameLen))
			case strings.ContainsFunc(s, unicode.IsControl):
				fe.Add(k, "Must not contain control characters")
			}
		case "locale":
			if !isString || !localeRE.MatchString(s) {
				fe.Add(k, `Must be a language tag such as "en" or "en-US"`)
			}
		case "timezone":
			if !isString || !validZone(s) {
				fe.Add(k, `Must be a time zone name such as "UTC" or "Europe/Paris"`)
			}
		}
	}
	return fe
}

// validZone reports whether s names a zone of the IANA database. "Local" (the server's own zone)
// and paths are refused before the database is asked.
func validZone(s string) bool {
	if len(s) > 64 || s == "Local" || !zoneRE.MatchString(s) {
		return false
	}
	_, err := time.LoadLocation(s)
	return err == nil
}
