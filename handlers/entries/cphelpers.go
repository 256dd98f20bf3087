package entries

import (
	"net/http"

	"cms/content"
	"cms/handlers/web"
)

// Two helpers of the Control Panel's entry editor, under /api/collections/{handle}/ so that they
// need no route of their own and check the same permission as reading the collection's entries:
//
//	GET  /api/collections/{handle}/blueprint  the blueprint the editor builds its form from
//	POST /api/collections/{handle}/markdown   Markdown rendered exactly as the site renders it

// GET /api/collections/{handle}/blueprint: needs entries:view on the collection (whoever may
// read the entries may see the shape of their fields).
func (a *api) blueprint(w http.ResponseWriter, r *http.Request) error {
	c, err := a.collectionFor(r, "handle")
	if err != nil {
		return err
	}
	return web.WriteBlueprint(w, a.Store, content.BlueprintCollections, c.Blueprint)
}

// markdownLimit bounds a preview request: the body of one entry, with room to spare.
const markdownLimit = 1 << 20

// POST /api/collections/{handle}/markdown {"markdown": "..."} → {"data": {"html": "..."}}: the
// HTML the public site makes of it (raw HTML escaped unless markdown.allowHtml). Needs
// entries:view on the collection; it reads and writes nothing.
func (a *api) markdown(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.collectionFor(r, "handle"); err != nil {
		return err
	}
	if a.Markdown == nil {
		return &web.Error{Status: http.StatusNotImplemented, Code: "NOT_AVAILABLE", Message: "Markdown preview is not available on this server"}
	}
	if err := web.RequireJSON(r); err != nil {
		return err
	}
	var in struct {
		Markdown *string `json:"markdown"`
	}
	if err := web.DecodeJSON(w, r, markdownLimit, &in); err != nil {
		return err
	}
	if in.Markdown == nil {
		return content.InvalidFields("entries.markdown", "The body needs a markdown string", map[string][]string{"markdown": {"This field is required"}})
	}
	html, err := a.Markdown.Render(*in.Markdown)
	if err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusOK, web.Data{Data: map[string]string{"html": html}})
	return nil
}

// collectionFor checks entries:view on the collection named by the path value and returns it.
func (a *api) collectionFor(r *http.Request, name string) (*content.Collection, error) {
	h := r.PathValue(name)
	if _, err := web.Require(a.Auth, r, "entries", "view", h); err != nil {
		return nil, err
	}
	if !content.ValidHandle(h) {
		return nil, web.BadRequest("Invalid collection handle %q: use letters, digits, '-' and '_'", content.Shorten(h))
	}
	return a.Store.Collection(h)
}
