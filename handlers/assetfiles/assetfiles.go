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
//
// A query with w, h, fit, fm, q, preset or s asks for a derivative of a raster image
// (content/imaging, content/imgurl): allowed only for a configured preset (?preset=thumb alone)
// or parameters signed with the site's key (&s=). Derivatives are cached and served with an ETag
// and Cache-Control: public, max-age=31536000, immutable.
package assetfiles

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"cms/content"
	"cms/content/assetpath"
	"cms/content/imaging"
	"cms/content/imgurl"
	"cms/handlers/web"
)

// Store is what the group reads: the method of fsstore.Store it calls.
type Store interface {
	// OpenAsset opens a regular file of the assets folder, or returns a NotFound error.
	OpenAsset(p string) (*os.File, content.AssetInfo, error)
	// StatAsset describes a file or folder of the assets folder, or returns a NotFound error.
	StatAsset(p string) (content.AssetInfo, error)
}

// Deps are the inputs of the group.
type Deps struct {
	Store Store
	Log   *slog.Logger
	// BasePath is the base path of the public API ("" means "/api/public"); files are served
	// under BasePath + "/assets/" as well as under "/assets/".
	BasePath string
	// Transformer makes image derivatives; nil answers allowed transform requests 404.
	Transformer *imaging.Transformer
	// Presets are the transforms anyone may ask for by name (?preset=name).
	Presets map[string]imgurl.Params
	// SigningKey allows any parameters signed with it (&s=); empty allows presets only.
	SigningKey []byte
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
	if q := r.URL.Query(); imgurl.IsTransform(q) {
		return a.transform(w, r, p, q)
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

// transformTypes are the source types a derivative is made of.
var transformTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true}

// transform answers a request for a derivative of the image at p.
func (a *api) transform(w http.ResponseWriter, r *http.Request, p string, q url.Values) error {
	params, err := a.allowed(p, q)
	if err != nil {
		return err
	}
	if a.Transformer == nil {
		return web.NotFound("Image transforms are not available")
	}
	// The file's size and time name the derivative; a stat is enough to find it in a cache.
	info, err := a.Store.StatAsset(p)
	if err != nil || info.Dir {
		if err == nil || content.IsNotFound(err) || content.KindOf(err) == content.Invalid {
			return web.NotFound("Asset not found")
		}
		return err
	}
	if !transformTypes[assetpath.MIMEType(p)] {
		return &web.Error{Status: http.StatusUnprocessableEntity, Code: imaging.CodeNotImage, Message: "Only JPEG, PNG, GIF and WebP images can be transformed"}
	}
	src := imaging.Source{Path: p, Size: info.Size, ModTime: info.ModTime, Open: func() (io.ReadSeekCloser, error) {
		f, _, err := a.Store.OpenAsset(p)
		return f, err
	}}
	d, err := a.Transformer.Get(r.Context(), src, params)
	if err != nil {
		if ce, ok := errors.AsType[*content.Error](err); ok && ce.Kind == content.Unavailable {
			return &web.Error{Status: http.StatusServiceUnavailable, Code: ce.Code, Message: ce.Message, Header: http.Header{"Retry-After": {"1"}}}
		}
		return err
	}
	h := w.Header()
	h.Set("Content-Type", d.ContentType)
	h.Set("ETag", d.ETag)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("Content-Security-Policy", mediaCSP)
	name := strings.TrimSuffix(info.Name(), path.Ext(info.Name())) + "." + strings.TrimPrefix(d.ContentType, "image/")
	h.Set("Content-Disposition", disposition("inline", name))
	if r.Header.Get("Range") != "" {
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(d.Data))
		return nil
	}
	// The common case in one write, without ServeContent's copy buffer.
	if web.NoneMatch(r, d.ETag) {
		h.Del("Content-Type") // as ServeContent's 304
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	h.Set("Content-Length", strconv.Itoa(len(d.Data)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(d.Data)
	}
	return nil
}

// allowed returns the transform a query asks for if it may be made: a configured preset named
// alone, or parameters signed with the signing key. Nothing else is: a transform costs a
// decode, so the site decides which ones exist.
func (a *api) allowed(p string, q url.Values) (imgurl.Params, error) {
	for _, k := range imgurl.Keys {
		if len(q[k]) > 1 {
			return imgurl.Params{}, web.BadRequest("%s may be given only once", k)
		}
	}
	if q.Has("preset") {
		for _, k := range imgurl.Keys {
			if k != "preset" && q.Has(k) {
				return imgurl.Params{}, web.BadRequest("preset cannot be combined with %s", k)
			}
		}
		params, ok := a.Presets[q.Get("preset")]
		if !ok {
			return imgurl.Params{}, &web.Error{Status: http.StatusBadRequest, Code: "UNKNOWN_PRESET", Message: fmt.Sprintf("No preset named %q (assets.transforms.presets)", q.Get("preset"))}
		}
		return params, nil
	}
	params, err := imgurl.Parse(q)
	if err != nil {
		return imgurl.Params{}, web.BadRequest("%v", err)
	}
	switch {
	case len(a.SigningKey) == 0:
		return imgurl.Params{}, &web.Error{Status: http.StatusForbidden, Code: "SIGNATURE_REQUIRED", Message: "This site allows only preset transforms (?preset=name)"}
	case !q.Has("s"):
		return imgurl.Params{}, &web.Error{Status: http.StatusForbidden, Code: "SIGNATURE_REQUIRED", Message: "Transform parameters need a signature (s) or a preset"}
	case !imgurl.Verify(a.SigningKey, p, params, q.Get("s")):
		return imgurl.Params{}, &web.Error{Status: http.StatusForbidden, Code: "INVALID_SIGNATURE", Message: "The signature does not match the path and parameters"}
	}
	return params, nil
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
