package publicentries

import (
	"encoding/json"
	"net/http"
	"strconv"

	"cms/content"
	"cms/handlers/web"
)

// PreviewVerifier checks draft-preview tokens (content/preview.Signer).
type PreviewVerifier interface {
	// Verify returns nil for a valid, unexpired token of exactly that entry, an Unauthenticated
	// error otherwise.
	Verify(token, collection, slug string) error
}

// previewEntry answers GET {base}/entries/{collection}/{slug}?preview=TOKEN: the entry's current
// file, draft or not, for a token signed for that entry only. The response is never cached or
// indexed, and a bad or expired token is a 401 that says nothing about the entry.
func (a *api) previewEntry(w http.ResponseWriter, r *http.Request) error {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Robots-Tag", "noindex")
	q := r.URL.Query()
	if len(q["preview"]) != 1 {
		return web.BadRequest("Give one preview token")
	}
	c, err := a.collection(r)
	if err != nil {
		return err
	}
	slug := r.PathValue("slug")
	if !content.ValidHandle(slug) {
		return web.BadRequest("Invalid entry identifier %q", slug)
	}
	if a.Preview == nil {
		return web.NotFound("Previews are not available here")
	}
	if err := a.Preview.Verify(q.Get("preview"), c.Handle, slug); err != nil {
		return err
	}
	e, err := a.Store.Entry(c.Handle, slug)
	if err != nil {
		if content.IsNotFound(err) {
			return web.NotFound("Entry not found")
		}
		return err
	}
	html, err := a.Markdown.Render(e.Content)
	if err != nil {
		return err
	}
	pe := publicEntry{Title: e.Title, Slug: e.Slug, Status: e.Status, Author: e.Author, Collection: e.Collection,
		CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt, URL: entryLink(a.requestSite(r), c, e), Content: e.Content, HTML: html, Data: e.Data}
	if pe.Data == nil {
		pe.Data = content.NewMap(0)
	}
	body, err := json.Marshal(struct {
		Data publicEntry `json:"data"`
	}{pe})
	if err != nil {
		return err
	}
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
	return nil
}
