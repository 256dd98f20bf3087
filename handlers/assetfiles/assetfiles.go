// Package assetfiles serves the files of the asset library to anyone:
//
//	GET|HEAD /assets/{path...}              the file at public/assets/{path}
//	GET|HEAD {public base}/assets/{path...}  the same, where Madori's public API serves them
//
// Files are served with http.ServeContent (Range, If-Modified-Since, If-None-Match with a strong
// ETag of size and modification time), a Content-Type taken from the extension and never sniffed,
// and X-Content-Type-Options: nosniff. Images and other known types are shown inline; files of
// unknown type are downloads. SVG images may carry scripts, so they are served with a
// Content-Security-Policy that forbids scripts and sandboxes the document; HTML and script files
// (which uploads refuse, but a file copied in by hand could be) are served as sandboxed downloads.
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
	"cms/content/fsstore"
	"cms/handlers/web"
)

// Store is what the group reads: the method of fsstore.Store it calls.
type Store interface {
	// OpenAsset opens a regular file of the assets folder, or returns a NotFound error.
	OpenAsset(p string) (*os.File, fsstore.AssetInfo, error)
}

// Deps are the inputs of the group.
type Deps struct {
	Store Store
	Log   *slog.Logger
	// BasePath is the base path of the public API ("" means "/api/public"); files are served
	// under BasePath + "/assets/" as well as under "/assets/".
	BasePath string
}

// CSP of SVG images and active files: no scripts, no plug-ins, a unique origin.
const sandboxCSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

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
	return rt, nil
}

func (a *api) serve(w http.ResponseWriter, r *http.Request) error {
	p := r.PathValue("path")
	if _, err := fsstore.CleanAssetPath(p); err != nil || p == "" || strings.HasSuffix(p, "/") {
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
	mimeType := fsstore.AssetMIMEType(p)
	h.Set("Content-Type", mimeType)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("ETag", fmt.Sprintf(`"%x-%x"`, info.Size, info.ModTime.UnixNano()))
	h.Set("Cache-Control", "public, max-age=0, must-revalidate")
	name := info.Name()
	switch {
	case fsstore.IsActiveAsset(p) || mimeType == "text/html":
		h.Set("Content-Security-Policy", sandboxCSP)
		h.Set("Content-Disposition", disposition("attachment", name))
	case mimeType == "image/svg+xml":
		h.Set("Content-Security-Policy", sandboxCSP)
		h.Set("Content-Disposition", disposition("inline", name))
	case mimeType == "application/octet-stream":
		h.Set("Content-Disposition", disposition("attachment", name))
	default:
		h.Set("Content-Disposition", disposition("inline", name))
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
