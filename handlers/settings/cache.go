package settings

import (
	"net/http"

	"cms/content"
	"cms/content/lru"
	"cms/handlers/web"
)

// PageCache is the static page cache (content/pagecache.Cache) as the CP operates it.
type PageCache interface {
	Stats() lru.Stats
	// Clear drops every page and returns how many there were.
	Clear() (int, error)
}

// WarmResult counts what a warm did: the pages requested, those stored now, those already
// cached, and those that failed (not a 200).
type WarmResult struct {
	Requested int `json:"requested"`
	Stored    int `json:"stored"`
	Cached    int `json:"cached"`
	Failed    int `json:"failed"`
}

// errCacheDisabled answers the cache routes while staticCache.enabled is false.
var errCacheDisabled = &content.Error{Kind: content.Conflict, Code: "DISABLED", Op: "cache", Message: "The static page cache is not enabled (staticCache.enabled)"}

// cacheRoutes adds the static cache's CP routes (docs/static-cache.md):
//
//	GET  /api/cache        settings:view  {"data":{entries,bytes,maxBytes,hits,misses}}
//	POST /api/cache/clear  settings:edit  {"data":{"cleared":N}}
//	POST /api/cache/warm   settings:edit  {"data":WarmResult}, after every page was requested
//
// With the cache off each answers 409 DISABLED after the permission check.
func (a *api) cacheRoutes(rt *web.Router) {
	rt.HandleFunc("GET /api/cache", a.cacheStats)
	rt.HandleFunc("POST /api/cache/clear", a.cacheClear)
	rt.HandleFunc("POST /api/cache/warm", a.cacheWarm)
	rt.NotFound("/api/cache/")
}

func (a *api) cacheStats(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "settings", "view", ""); err != nil {
		return err
	}
	if a.PageCache == nil {
		return errCacheDisabled
	}
	w.Header().Set("Cache-Control", "no-store")
	web.WriteJSON(w, http.StatusOK, web.Data{Data: a.PageCache.Stats()})
	return nil
}

func (a *api) cacheClear(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "settings", "edit", ""); err != nil {
		return err
	}
	if a.PageCache == nil {
		return errCacheDisabled
	}
	n, err := a.PageCache.Clear()
	if err != nil {
		return err
	}
	a.Log.Info("static cache cleared", "pages", n)
	web.WriteJSON(w, http.StatusOK, web.Data{Data: map[string]int{"cleared": n}})
	return nil
}

func (a *api) cacheWarm(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "settings", "edit", ""); err != nil {
		return err
	}
	if a.PageCache == nil || a.Warm == nil {
		return errCacheDisabled
	}
	res, err := a.Warm(r.Context())
	if err != nil {
		return err
	}
	a.Log.Info("static cache warmed", "requested", res.Requested, "stored", res.Stored, "failed", res.Failed)
	web.WriteJSON(w, http.StatusOK, web.Data{Data: res})
	return nil
}
