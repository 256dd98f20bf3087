package assets

import (
	"net/url"
	"strings"
	"time"

	"cms/content"
	"cms/content/assetpath"
)

// asset is the wire shape of a file or folder.
type asset struct {
	Path       string       `json:"path"`
	Filename   string       `json:"filename"`
	Directory  bool         `json:"directory,omitempty"`
	Extension  *string      `json:"extension,omitempty"`
	Size       *int64       `json:"size,omitempty"`
	MimeType   string       `json:"mimeType,omitempty"`
	ModifiedAt string       `json:"modifiedAt,omitempty"`
	Alt        string       `json:"alt,omitempty"`
	Meta       *content.Map `json:"meta,omitempty"`
	URL        string       `json:"url,omitempty"`
}

// wire describes an asset; meta may be nil.
func (a *api) wire(info content.AssetInfo, meta *content.Map) asset {
	out := asset{Path: info.Path, Filename: info.Name()}
	if info.Dir {
		out.Directory = true
		return out
	}
	ext := strings.TrimPrefix(pathExt(info.Path), ".")
	size := info.Size
	out.Extension, out.Size = &ext, &size
	out.MimeType = assetpath.MIMEType(info.Path)
	out.ModifiedAt = info.ModTime.UTC().Format(time.RFC3339Nano)
	out.URL = a.URLPrefix + "/" + escapePath(info.Path)
	if meta.Len() > 0 {
		out.Meta = meta
		out.Alt, _ = meta.String("alt")
	}
	return out
}

func pathExt(p string) string {
	base := p[strings.LastIndexByte(p, '/')+1:]
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		return base[i:]
	}
	return ""
}

// escapePath percent-encodes each element of a slash-separated path.
func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}
