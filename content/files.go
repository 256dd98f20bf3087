package content

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"path"
	"time"

	"github.com/google/uuid"
)

// The file-shaped values the store hands out. They live here, not in the store's package, so
// that the HTTP handlers can name them without importing the backend.

// Doc is a YAML mapping file of the content folder that is read and written as a whole: a
// global's data, a navigation tree, a term, the settings.
type Doc struct {
	Data   *Map   // the mapping in file order; empty (never nil) when the file is missing
	Hash   string // SHA-256 hex of the file's bytes; EmptyHash when it is missing
	Exists bool
}

// EmptyHash is the Hash of a missing file: the SHA-256 of no bytes. A client that read a missing
// file and sends this hash back still writes only if nobody created the file meanwhile.
const EmptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

// NavTree is a navigation tree read from content/navigation/{handle}.yaml.
type NavTree struct {
	Items  []NavItem
	Hash   string // SHA-256 hex of the file's bytes; EmptyHash when it is missing
	Exists bool
}

// AssetInfo describes one file or folder of the assets folder.
type AssetInfo struct {
	Path    string // slash-separated, relative to the assets folder
	Size    int64
	ModTime time.Time
	Dir     bool
	HasMeta bool // a metadata sidecar exists (set by ListAssets only)
}

// Name returns the last element of the path.
func (a AssetInfo) Name() string { return path.Base(a.Path) }

// Hook is the metadata of an installed validation hook.
type Hook struct {
	Name       string `json:"name"`
	SHA256     string `json:"sha256"`     // hex sha256 of the module
	Size       int64  `json:"size"`       // module bytes
	UploadedBy string `json:"uploadedBy"` // user id, or "cli"
	UploadedAt string `json:"uploadedAt"` // ISO 8601
	ABIVersion int    `json:"abiVersion"`
}

// ValidHookName reports whether name can name a hook: a lower-case letter or digit, then up to
// 63 lower-case letters, digits, '_' or '-'.
func ValidHookName(name string) bool { return IsName(name, 64, true, "_-") }

// NewSubmissionID returns a version 7 UUID for a submission made at t. The 12 bits after the
// milliseconds hold the fraction of the millisecond (RFC 9562, method 3), so ids of one process
// sort by time to about a quarter of a microsecond; the remaining 62 bits are random.
func NewSubmissionID(t time.Time) string {
	var u uuid.UUID
	_, _ = rand.Read(u[8:])
	frac := uint64(t.Nanosecond()%1e6) * 4096 / 1e6
	binary.BigEndian.PutUint64(u[:8], uint64(t.UnixMilli())<<16|0x7000|frac)
	u[8] = 0x80 | u[8]&0x3f // RFC 9562 variant
	return u.String()
}

// ScalarString reads a scalar YAML value as a string: nil is "", a string itself, anything else
// as fmt prints it.
func ScalarString(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// ParseTerm reads a term file: title (default the slug), description, and every other key as
// data. A slug key in the file is ignored: the file name is the slug.
func ParseTerm(tax, slug string, m *Map) *Term {
	t := &Term{Taxonomy: tax, Slug: slug, Data: NewMap(m.Len())}
	for _, k := range m.Keys() {
		v := m.Value(k)
		switch k {
		case "title":
			t.Title = ScalarString(v)
		case "description":
			t.Description = ScalarString(v)
		case "slug":
		default:
			t.Data.Set(k, v)
		}
	}
	if t.Title == "" {
		t.Title = slug
	}
	return t
}

// TermFile is the mapping a term file holds: title, description (when set), then its data.
func TermFile(t *Term) *Map {
	m := NewMap(2 + t.Data.Len())
	m.Set("title", t.Title)
	if t.Description != "" {
		m.Set("description", t.Description)
	}
	for _, k := range t.Data.Keys() {
		if k != "title" && k != "description" && k != "slug" {
			m.Set(k, t.Data.Value(k))
		}
	}
	return m
}
