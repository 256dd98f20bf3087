package assets

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"path"
	"strings"

	"cms/content"
	"cms/content/assetpath"
	"cms/handlers/web"
)

// UploadDetails are the facts of an UPLOAD_FAILED error, written inside the error object.
type UploadDetails struct {
	Constraint string `json:"constraint"` // "file_size" or "file_type"
	Limit      string `json:"limit"`      // e.g. "10MB", or the allowed types
}

const activeMessage = "Web pages, XSLT style sheets, web archives and scripts cannot be uploaded"

// POST /api/assets and POST /api/assets/upload: upload a file (multipart/form-data).
func (a *api) upload(w http.ResponseWriter, r *http.Request) error {
	const op = "assets.upload"
	who, err := web.Require(a.Auth, r, "assets", "create", "")
	if err != nil {
		return err
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "multipart/form-data" {
		return &web.Error{Status: http.StatusUnsupportedMediaType, Code: "UNSUPPORTED_MEDIA_TYPE",
			Message: "Uploads must be sent as multipart/form-data with the file in the field \"file\""}
	}
	r.Body = http.MaxBytesReader(w, r.Body, a.MaxUploadBytes+formSlack)
	if err := r.ParseMultipartForm(memoryBytes); err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return a.tooLarge(op, "The file", -1)
		}
		return web.BadRequest("Could not read the multipart upload: %v", err)
	}
	defer r.MultipartForm.RemoveAll()
	form := r.MultipartForm
	dir, err := cleanPath("directory", formValue(form, "directory"), true)
	if err != nil {
		return err
	}
	overwrite := false
	switch formValue(form, "overwrite") {
	case "", "false", "0":
	case "true", "1":
		overwrite = true
	default:
		return web.BadRequest("overwrite must be true or false")
	}
	alt := formValue(form, "alt")
	files := form.File["file"]
	if len(files) == 0 {
		return content.InvalidFields(op, "No file was uploaded", map[string][]string{"file": {"This field is required"}})
	}
	if len(files) > 1 {
		return content.InvalidFields(op, "Upload one file at a time", map[string][]string{"file": {"Only one file may be sent"}})
	}
	fh := files[0]
	name := assetpath.Sanitize(fh.Filename)
	if fh.Size > a.MaxUploadBytes {
		return a.tooLarge(op, fmt.Sprintf("File %q", name), fh.Size)
	}
	if assetpath.IsActive(name) {
		return content.InvalidFields(op, activeMessage, map[string][]string{"file": {activeMessage}})
	}
	mimeType := assetpath.MIMEType(name)
	if !a.allowed(mimeType) {
		return &content.Error{Kind: content.Invalid, Op: op, Code: "UPLOAD_FAILED",
			Message: fmt.Sprintf("File %q has type %s, which is not allowed", name, mimeType),
			Details: UploadDetails{Constraint: "file_type", Limit: strings.Join(a.AllowedTypes, ", ")}}
	}
	f, err := fh.Open()
	if err != nil {
		return content.Internalf(op, name, err)
	}
	defer f.Close()
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return content.Internalf(op, name, err)
	}
	head = head[:n]
	if looksLikeHTML(name, head) {
		return content.InvalidFields(op, activeMessage, map[string][]string{"file": {activeMessage}})
	}
	p := path.Join(dir, name)
	info, err := a.storeFor(who).SaveAsset(p, io.MultiReader(bytes.NewReader(head), f), overwrite)
	if err != nil {
		return err
	}
	if alt != "" {
		meta, err := a.Store.AssetMeta(info.Path)
		if err != nil {
			return err
		}
		meta.Set("alt", alt)
		if err := a.storeFor(who).SaveAssetMeta(info.Path, meta); err != nil {
			return err
		}
	}
	w.Header().Set("Location", a.URLPrefix+"/"+escapePath(info.Path))
	return a.writeAsset(w, http.StatusCreated, info.Path)
}

func formValue(f *multipart.Form, k string) string {
	if v := f.Value[k]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// tooLarge is the UPLOAD_FAILED error of a file over the limit; size < 0 means unknown (the
// body was cut off).
func (a *api) tooLarge(op, what string, size int64) error {
	limit := formatSize(a.MaxUploadBytes)
	msg := fmt.Sprintf("%s exceeds %s limit", what, limit)
	if size >= 0 {
		msg += " (" + formatSize(size) + ")"
	}
	return &content.Error{Kind: content.Invalid, Op: op, Code: "UPLOAD_FAILED", Message: msg,
		Details: UploadDetails{Constraint: "file_size", Limit: limit}}
}

// formatSize writes a byte count as Madori does: B, KB, MB or GB (powers of 1024), with one
// decimal unless whole.
func formatSize(n int64) string {
	units := []string{"B", "KB", "MB", "GB"}
	v, u := float64(n), 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d%s", int64(v), units[u])
	}
	return fmt.Sprintf("%.1f%s", v, units[u])
}

// allowed reports whether a MIME type passes AllowedTypes ("image/*" covers all images).
func (a *api) allowed(t string) bool {
	if len(a.AllowedTypes) == 0 {
		return true
	}
	for _, at := range a.AllowedTypes {
		at = strings.ToLower(strings.TrimSpace(at))
		if at == t || (strings.HasSuffix(at, "/*") && strings.HasPrefix(t, strings.TrimSuffix(at, "*"))) {
			return true
		}
	}
	return false
}

// looksLikeHTML reports whether a browser sniffing the file's first bytes would take it for an
// HTML page. An SVG document may open with a comment, which sniffs as HTML; it is served with
// its own type, nosniff and a sandbox, so it is let through when it is visibly an SVG.
func looksLikeHTML(name string, head []byte) bool {
	if !strings.HasPrefix(http.DetectContentType(head), "text/html") {
		return false
	}
	return !(assetpath.Ext(name) == "svg" && bytes.Contains(bytes.ToLower(head), []byte("<svg")))
}
