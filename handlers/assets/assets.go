// Package assets is the Control Panel API for the asset library under public/assets/:
//
//	GET    /api/assets?directory=<dir>  assets:view    {"data":[Asset],"directories":[names]}
//	POST   /api/assets                  assets:create  multipart upload; 201 {"data":Asset}
//	POST   /api/assets/upload           assets:create  the same (Madori's path)
//	GET    /api/assets/meta?path=<p>    assets:view    {"data":Asset} with all its metadata
//	GET    /api/assets/usage?path=<p>   assets:view    {"data":Usage}: entries, globals, terms using it
//	PUT    /api/assets/meta?path=<p>    assets:edit    {"alt":...} replaces the metadata sidecar
//	POST   /api/assets/move             assets:edit    {"from","to"}; {"data":Asset}
//	DELETE /api/assets?path=<p>         assets:delete  {"data":{"path","deleted":true}}
//	POST   /api/assets/folders          assets:create  {"path"}; 201 (200 if it existed)
//
// Asset is {path, filename, extension, size, mimeType, modifiedAt, alt?, meta?, url}: path is
// relative to the assets folder, extension has no dot and keeps its case, mimeType comes from the
// extension, url is where the assetfiles group serves the file. Folders listed or moved are
// {path, filename, directory: true}.
//
// An upload sends the field file, and optionally directory (a folder, created as needed), alt
// and overwrite=true (an existing file is otherwise 409 CONFLICT). The file name is sanitised.
// A file over MaxUploadBytes, or of a type outside AllowedTypes, is 422 UPLOAD_FAILED with
// constraint ("file_size" or "file_type") and limit inside the error object. Active content is
// refused whatever AllowedTypes says (422 VALIDATION_ERROR): the extensions of
// assetpath.IsActive (HTML and XHTML pages, XSLT, web archives, HTML applications, scripts),
// and any file whose first bytes a browser would take for HTML. XML and SVG are accepted; the
// assetfiles group serves every file sandboxed, which is the guard that also covers files copied
// into the folder by hand.
//
// Every path a client gives (directory, path, from, to) must be relative to the assets folder,
// without "..", ".", hidden or empty elements, NUL, control characters or backslashes, and must
// not name a metadata sidecar; anything else is 400 BAD_REQUEST. The store opens the assets
// folder as its own os.Root, so nothing escapes it even by a symbolic link.
package assets

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"cms/content"
	"cms/handlers/web"
)

// Store is what the group reads and writes: the methods of fsstore.Store it calls. Paths are
// relative to the assets folder; a path that breaks assetpath.Clean is an Invalid error.
type Store interface {
	// ListAssets lists a folder's files and sub-folder names; a missing folder is a NotFound error.
	ListAssets(dir string) ([]content.AssetInfo, []string, error)
	// StatAsset describes a file or folder, or returns a NotFound error.
	StatAsset(p string) (content.AssetInfo, error)
	// SaveAsset writes a file; an existing one is a Conflict error unless overwrite is set.
	SaveAsset(p string, src io.Reader, overwrite bool) (content.AssetInfo, error)
	// AssetMeta reads a file's metadata; a missing file is a NotFound error.
	AssetMeta(p string) (*content.Map, error)
	// SaveAssetMeta replaces a file's metadata; a missing file is a NotFound error.
	SaveAssetMeta(p string, meta *content.Map) error
	// MoveAsset renames a file or folder; a missing source is NotFound, a taken target Conflict.
	MoveAsset(from, to string) (content.AssetInfo, error)
	// DeleteAsset removes a file or an empty folder; a missing one is NotFound, a non-empty
	// folder Conflict.
	DeleteAsset(p string) error
	// CreateAssetFolder creates a folder and reports whether it is new; a file in the way is a
	// Conflict error.
	CreateAssetFolder(p string) (bool, error)
	// AssetUsage lists the entries, globals and terms that refer to the file at p (served under
	// urlPrefix), at most limit, and whether there were more.
	AssetUsage(p, urlPrefix string, limit int) ([]content.AssetUse, bool, error)
}

// Deps are the inputs of the group.
type Deps struct {
	Store Store
	// As returns the store whose writes are attributed to an editor (git sync); nil = Store.
	As func(content.Editor) Store
	// Auth identifies callers. When nil every request is answered 401.
	Auth web.Authenticator
	Log  *slog.Logger
	// MaxUploadBytes bounds one uploaded file; 0 means DefaultMaxUploadBytes.
	MaxUploadBytes int64
	// AllowedTypes lists the MIME types an upload may have ("image/*" matches every image);
	// empty allows every type but active content.
	AllowedTypes []string
	// URLPrefix is where the assetfiles group serves the folder; "" means "/assets".
	URLPrefix string
}

// Limits.
const (
	DefaultMaxUploadBytes = 10 << 20
	// memoryBytes of an upload are kept in memory; the rest goes to a temporary file in the
	// system's temporary folder (on Lambda, /tmp).
	memoryBytes = 4 << 20
	// formSlack is what a multipart body may carry beyond the file: headers and small fields.
	formSlack = 64 << 10
	// jsonLimit bounds the JSON bodies of the other endpoints.
	jsonLimit = 64 << 10
)

// Prefixes are the path prefixes the group serves.
func Prefixes() []string { return []string{"/api/assets", "/api/assets/"} }

type api struct{ Deps }

// New builds the group's handler.
func New(d Deps) (http.Handler, error) {
	if d.Store == nil {
		return nil, errors.New("assets: Store is required")
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.MaxUploadBytes <= 0 {
		d.MaxUploadBytes = DefaultMaxUploadBytes
	}
	if d.URLPrefix == "" {
		d.URLPrefix = "/assets"
	}
	d.URLPrefix = strings.TrimSuffix(d.URLPrefix, "/")
	for _, t := range d.AllowedTypes {
		if !strings.Contains(t, "/") {
			return nil, errors.New("assets: allowed type " + t + " is not a MIME type such as image/png or image/*")
		}
	}
	a := &api{Deps: d}
	rt := web.NewRouter()
	rt.HandleFunc("GET /api/assets", a.list)
	rt.HandleFunc("POST /api/assets", a.upload)
	rt.HandleFunc("DELETE /api/assets", a.remove)
	rt.HandleFunc("POST /api/assets/upload", a.upload)
	rt.HandleFunc("GET /api/assets/meta", a.meta)
	rt.HandleFunc("GET /api/assets/usage", a.usage)
	rt.HandleFunc("PUT /api/assets/meta", a.saveMeta)
	rt.HandleFunc("POST /api/assets/move", a.move)
	rt.HandleFunc("POST /api/assets/folders", a.folder)
	rt.NotFound("/api/assets/")
	return rt, nil
}
