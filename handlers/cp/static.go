package cp

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"sync"
	"time"
)

// static holds the pages (templates, rendered once in New) and assets/ (served as they are).
//
//go:embed static
var static embed.FS

// assetMaxAge is short so that a new deployment reaches editors within minutes; the ETag makes
// the revalidation after that a 304.
const assetMaxAge = 5 * time.Minute

// contentType returns the type of a file under static/assets by its extension. Set explicitly
// rather than from the system's MIME table, which differs between machines (and nosniff makes a
// wrong type fatal).
func contentType(ext string) (string, bool) {
	switch ext {
	case ".js":
		return "text/javascript; charset=utf-8", true
	case ".css":
		return "text/css; charset=utf-8", true
	case ".svg":
		return "image/svg+xml", true
	}
	return "", false
}

// file is one prepared response: a page (rendered once in New, never cached by browsers) or an
// asset (revalidated by ETag).
type file struct {
	name        string
	contentType string
	page        []byte // a page's body; nil for an asset
	// asset reads an asset's body and hashes its ETag on first use: the editor bundles take
	// most of a megabyte, which every start would otherwise copy out of the binary and hash.
	asset func() (assetData, error)
}

type assetData struct {
	body []byte
	etag string // quoted
}

// newAsset prepares the embedded asset at path p, served as name.
func newAsset(name, p, contentType string) *file {
	return &file{name: name, contentType: contentType, asset: sync.OnceValues(func() (assetData, error) {
		b, err := static.ReadFile(p)
		if err != nil {
			return assetData{}, err
		}
		sum := sha256.Sum256(b)
		return assetData{body: b, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}, nil
	})}
}

type files struct {
	index, login *file
	assets       map[string]*file // by name under static/assets
}

// pageData fills the page templates.
type pageData struct {
	Base   string // the CP's path as the browser sees it
	API    string // the API's path as the browser sees it
	Secure bool
	// Asset returns the URL of an asset with a version query, so a new build is fetched at once
	// even while an old copy is still fresh in the browser's cache.
	Asset func(name string) (string, error)
}

// loadFiles prepares every embedded file.
func loadFiles(d pageData) (*files, error) {
	out := &files{assets: map[string]*file{}}
	err := fs.WalkDir(static, "static/assets", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		ct, ok := contentType(path.Ext(p))
		if !ok {
			return fmt.Errorf("%s: no content type for this extension", p)
		}
		name := p[len("static/assets/"):]
		out.assets[name] = newAsset(name, p, ct)
		return nil
	})
	if err != nil {
		return nil, err
	}
	d.Asset = func(name string) (string, error) {
		a, ok := out.assets[name]
		if !ok {
			return "", fmt.Errorf("page names a missing asset %q", name)
		}
		ad, err := a.asset()
		if err != nil {
			return "", err
		}
		return d.Base + "/assets/" + name + "?v=" + ad.etag[1:9], nil
	}
	for _, pg := range []struct {
		name string
		dst  **file
	}{{"index.html", &out.index}, {"login.html", &out.login}} {
		t, err := template.ParseFS(static, "static/"+pg.name)
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		if err := t.Execute(&b, d); err != nil {
			return nil, fmt.Errorf("%s: %w", pg.name, err)
		}
		*pg.dst = &file{name: pg.name, page: b.Bytes(), contentType: "text/html; charset=utf-8"}
	}
	if len(out.assets) == 0 {
		return nil, errNoFiles
	}
	return out, nil
}

// serve writes the file. Pages are no-store; assets are cacheable briefly and revalidated by
// ETag ([http.ServeContent] answers If-None-Match with 304, and HEAD without a body).
func (f *file) serve(w http.ResponseWriter, r *http.Request) error {
	if f.asset == nil {
		h := w.Header()
		h.Set("Content-Type", f.contentType)
		h.Set("Cache-Control", "no-store")
		h.Set("Vary", "Cookie")
		h.Set("Content-Length", strconv.Itoa(len(f.page)))
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			w.Write(f.page)
		}
		return nil
	}
	a, err := f.asset()
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", f.contentType)
	h.Set("Cache-Control", "public, max-age="+strconv.Itoa(int(assetMaxAge/time.Second)))
	h.Set("ETag", a.etag)
	http.ServeContent(w, r, f.name, time.Time{}, bytes.NewReader(a.body))
	return nil
}
