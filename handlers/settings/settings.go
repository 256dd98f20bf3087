// Package settings is the Control Panel API for the site's runtime settings in
// content/settings.yaml:
//
//	GET /api/settings  settings:view  {"data":{site_name,locale,timezone,...}}, with an ETag
//	PUT /api/settings  settings:edit  a JSON object of the keys to change; answered like GET
//
// GET fills in defaults for the three known keys when the file lacks them (site_name
// "My Site", locale "en-US", timezone "UTC") and never creates the file. PUT merges: the keys
// sent replace the stored ones, keys left out stay, and a key sent as null is removed (a known
// key then reads as its default again). site_name must be a non-empty string of at most 200
// characters, locale a language tag such as "en" or "en-US", timezone an IANA zone name such as
// "Europe/Paris"; a failure is 422 VALIDATION_ERROR with fields. Other keys are kept as sent.
// A settings file that does not parse is a 500 for both GET and PUT (logged with its line): a
// merge cannot keep keys it cannot read, so it is fixed by hand. The file is written atomically,
// and PUT with If-Match set to the ETag of a GET is refused with
// 409 CONFLICT when the file changed meanwhile.
package settings

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	// The zone database is embedded so that timezone validation does not depend on the host:
	// minimal Lambda and container images ship without /usr/share/zoneinfo.
	_ "time/tzdata"

	"cms/content"
	"cms/handlers/web"
)

// Store is what the group reads and writes: the methods of fsstore.Store it calls.
type Store interface {
	// Settings reads the settings file; a missing file is an empty Doc with Exists false.
	Settings() (content.Doc, error)
	// UpdateSettings rewrites the settings with what update returns for the current values,
	// under the file's lock. An error from update is returned as it is; a wantHash that does not
	// match the file is a Conflict error.
	UpdateSettings(wantHash string, update func(cur *content.Map) (*content.Map, error)) (content.Doc, error)
}

// Deps are the inputs of the group.
type Deps struct {
	Store Store
	// As returns the store whose writes are attributed to an editor (git sync); nil = Store.
	As func(content.Editor) Store
	// Auth identifies callers. When nil every request is answered 401.
	Auth web.Authenticator
	Log  *slog.Logger
	// BodyLimit bounds request bodies; 0 means 64 KiB.
	BodyLimit int64
	// PageCache is the static page cache; nil when staticCache is off (cache.go).
	PageCache PageCache
	// Warm requests every routed published page through the website; nil = not available.
	Warm func(context.Context) (WarmResult, error)
}

// Defaults of the known settings.
const (
	DefaultSiteName = "My Site"
	DefaultLocale   = "en-US"
	DefaultTimezone = "UTC"
)

// Prefixes are the path prefixes the group serves.
func Prefixes() []string {
	return []string{"/api/settings", "/api/settings/", "/api/cache", "/api/cache/"}
}

type api struct{ Deps }

// New builds the group's handler.
func New(d Deps) (http.Handler, error) {
	if d.Store == nil {
		return nil, errors.New("settings: Store is required")
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.BodyLimit <= 0 {
		d.BodyLimit = 64 << 10
	}
	a := &api{Deps: d}
	rt := web.NewRouter()
	rt.HandleFunc("GET /api/settings", a.get)
	rt.HandleFunc("PUT /api/settings", a.put)
	rt.NotFound("/api/settings/")
	a.cacheRoutes(rt)
	return rt, nil
}
