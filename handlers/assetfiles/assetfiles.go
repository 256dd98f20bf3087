// Package assetfiles serves the files of the asset library to anyone:
//
//	GET|HEAD /assets/{path...}              the file at public/assets/{path}
//	GET|HEAD {public base}/assets/{path...}  the same, where Madori's public API serves them
//
// Files are served with http.ServeContent (Range, If-Modified-Since, If-None-Match with a strong
// ETag of size and modification time) and a Content-Type taken from the extension.
//
// Anyone who may upload could otherwise publish a page on the site's origin: an XHTML .xml, an
// .svg, an .xsl or an .html file copied in by hand all run scripts when a browser opens them. So
// every response of the group, errors and 304s included, carries X-Content-Type-Options: nosniff
// and a Content-Security-Policy that sandboxes the document (no scripts, no forms, no pop-ups, an
// opaque origin) and loads nothing. Only images, video, audio and PDF (inlineTypes) are shown
// inline; they may load themselves, which is how a browser's own viewer page shows them. Every
// other type, SVG and unknown types included, is a download (Content-Disposition: attachment).
// An <img>, <video> or stylesheet link embeds any of them as before: the disposition and the
// policy only govern opening the file itself.
//
// Metadata sidecars (*.meta.yaml), hidden files, folders, symbolic links and any path that is
// not a clean relative path inside the assets folder are 404.
package assetfiles

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"

	"cms/content"
	"cms/content/assetpath"
	"cms/handlers/web"
)

// Store is what the group reads: the method of fsstore.Store it calls.
type Store interface {
	// OpenAsset opens a regular file of the assets folder, or returns a NotFound error.
	OpenAsset(p string) (*os.File, content.AssetInfo, error)
}

// Deps are the inputs of the group.
type Deps struct {
	Store Store
	Log   *slog.Logger
	// BasePath is the base path of the public API ("" means "/api/public"); files are served
	// under BasePath + "/assets/" as well as under "/assets/".
	BasePath string
}

// Content-Security-Policy of every response: no scripts, plug-ins, forms or pop-ups, an opaque
// origin, nothing loaded.
const sandboxCSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

// mediaCSP is sandboxCSP for inline media: a browser shows a video or audio file opened on its own
// in a page of its making that loads the file again under this policy.
const mediaCSP = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox"

// inlineTypes are the types shown in the browser rather than downloaded: a browser renders them
// with its own viewer, never as a page of the site. SVG is not among them: it is a document that
// can carry text, links and HTML, so even sandboxed it would let an author dress a page of the
// site's origin; <img> still embeds it.
var inlineTypes = map[string]bool{
	"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true, "image/avif": true,
	"image/x-icon": true, "video/mp4": true, "video/webm": true, "video/quicktime": true,
	"audio/mpeg": true, "audio/wav": true, "audio/ogg": true, "application/pdf": true,
}

// Prefixes are the path prefixes the group serves for a public API base path.
func Prefixes(basePath string) []string {
	return []string{"/assets/", publicPrefix(basePath)}
}

func publicPrefix(basePath string) string {
	if basePath == "" {
		basePath = "/api/public"
	}
	return strings.TrimSuffix(basePath, "/") + "/assets/"
}

type api struct{ Deps }

// New builds the group's handler.
func New(d Deps) (http.Handler, error) {
	if d.Store == nil {
		return nil, errors.New("assetfiles: Store is required")
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	a := &api{Deps: d}
	rt := web.NewRouter()
	rt.HandleFunc("GET /assets/{path...}", a.serve)
	rt.HandleFunc("GET "+publicPrefix(d.BasePath)+"{path...}", a.serve)
	return sandboxed{rt}, nil
}

// sandboxed sets the sandbox headers before routing so that 404s, 405s and redirects carry them
// too; the embedded router's route table stays visible.
type sandboxed struct{ *web.Router }

func (s sandboxed) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", sandboxCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	s.Router.ServeHTTP(w, r)
}

// GET /assets/{path...} and GET /api/public/assets/{path...} (under public.basePath): a file of
// the asset library.
func (a *api) serve(w http.ResponseWriter, r *http.Request) error {
	p := r.PathValue("path")
	if _, err := assetpath.Clean(p); err != nil || p == "" || strings.HasSuffix(p, "/") {
		return web.NotFound("Asset not found")
	}
	f, info, err := a.Store.OpenAsset(p)
	if err != nil {
		if content.IsNotFound(err) || content.KindOf(err) == content.Invalid {
			return web.NotFound("Asset not found")
		}
		return err
	}
	defer f.Close()
	h := w.Header()
	mimeType := assetpath.MIMEType(p)
	h.Set("Content-Type", mimeType)
	h.Set("ETag", fmt.Sprintf(`"%x-%x"`, info.Size, info.ModTime.UnixNano()))
	h.Set("Cache-Control", "public, max-age=0, must-revalidate")
	name := info.Name()
	if inlineTypes[mimeType] {
		h.Set("Content-Security-Policy", mediaCSP)
		h.Set("Content-Disposition", disposition("inline", name))
	} else {
		h.Set("Content-Disposition", disposition("attachment", name))
	}
	http.ServeContent(w, r, name, info.ModTime, f)
	return nil
}

// disposition builds a Content-Disposition value with a plain ASCII filename and, for other
// names, the RFC 5987 filename* form.
func disposition(kind, name string) string {
	ascii := strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' || r == ';' {
			return '_'
		}
		return r
	}, name)
	v := fmt.Sprintf(`%s; filename="%s"`, kind, ascii)
	if ascii != name {
		v += "; filename*=UTF-8''" + escapeRFC5987(name)
	}
	return v
}

func escapeRFC5987(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
