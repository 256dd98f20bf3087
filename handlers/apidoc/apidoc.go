// Package apidoc serves the OpenAPI document of the HTTP API (content/codegen), built from the
// current definitions and cached until they change. The entries group serves the whole document
// to signed-in callers at GET /api/openapi.json; the public entries group serves its public part
// anonymously at GET {public.basePath}/openapi.json.
package apidoc

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"sync"

	"cms/content/codegen"
	"cms/handlers/web"
)

// Definitions are what the document is built from (fsstore.Store has these methods).
type Definitions interface {
	codegen.Definitions
	// DefinitionsGeneration changes whenever a definition changes.
	DefinitionsGeneration() uint64
}

// Doc is one served document.
type Doc struct {
	Defs           Definitions
	PublicBasePath string
	GraphQLPath    string
	PublicOnly     bool

	mu   sync.Mutex
	gen  uint64
	body []byte
	etag string
}

// current returns the encoded document of the current definitions.
func (d *Doc) current() ([]byte, string, error) {
	gen := d.Defs.DefinitionsGeneration()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.body != nil && d.gen == gen {
		return d.body, d.etag, nil
	}
	site := codegen.Load(d.Defs, d.PublicBasePath, d.GraphQLPath)
	b, err := codegen.DocumentJSON(site, codegen.DocumentOptions{PublicOnly: d.PublicOnly})
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(b)
	d.gen, d.body, d.etag = gen, b, `"`+hex.EncodeToString(sum[:12])+`"`
	return d.body, d.etag, nil
}

// Write answers with the document (or 304 for its ETag).
func (d *Doc) Write(w http.ResponseWriter, r *http.Request) error {
	b, etag, err := d.current()
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "no-cache")
	if web.NoneMatch(r, etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	h.Set("Content-Length", strconv.Itoa(len(b)))
	web.WriteJSONBytes(w, http.StatusOK, b)
	return nil
}
