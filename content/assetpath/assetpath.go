// Package assetpath holds the pure rules of asset files: which client paths are acceptable,
// how an uploaded name is made safe, and the MIME type and activeness of a name by its
// extension. The store and the asset handlers share them.
package assetpath

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MetaSuffix ends the name of an asset's metadata sidecar: photo.jpg has photo.jpg.meta.yaml.
const MetaSuffix = ".meta.yaml"

// Bounds on asset paths.
const (
	MaxPathLen = 1024 // bytes of a whole path
	MaxNameLen = 200  // bytes of one file or folder name
)

// Clean checks a path taken from a client and relative to the assets folder, and
// returns it without a trailing slash. The empty path (or "/") names the assets folder itself. A path is refused when it is absolute, holds a NUL, a control character,
// a backslash or invalid UTF-8, has an empty, ".", ".." or dot-prefixed element (hidden files
// and the store's temp files are never assets), names a metadata sidecar, or is too long. The
// error message is safe to show a client. The store enforces the same rules, and its os.Root
// keeps every path inside the assets folder whatever a check misses.
func Clean(p string) (string, error) {
	p = strings.TrimSuffix(p, "/")
	if p == "" {
		return "", nil
	}
	switch {
	case len(p) > MaxPathLen:
		return "", fmt.Errorf("path is longer than %d bytes", MaxPathLen)
	case !utf8.ValidString(p):
		return "", errors.New("path is not valid UTF-8")
	case strings.HasPrefix(p, "/"):
		return "", errors.New("path must be relative to the assets folder")
	case strings.ContainsRune(p, '\\'):
		return "", errors.New("path must not contain a backslash")
	case strings.HasSuffix(p, MetaSuffix):
		return "", errors.New("metadata sidecar files are not assets")
	}
	for _, r := range p {
		if r == 0 || unicode.IsControl(r) {
			return "", errors.New("path must not contain control characters")
		}
	}
	for seg := range strings.SplitSeq(p, "/") {
		switch {
		case seg == "":
			return "", errors.New("path must not contain empty elements")
		case seg == "." || seg == "..":
			return "", errors.New("path must not contain . or .. elements")
		case strings.HasPrefix(seg, "."):
			return "", errors.New("path must not name hidden files or folders")
		case len(seg) > MaxNameLen:
			return "", fmt.Errorf("a file or folder name is longer than %d bytes", MaxNameLen)
		}
	}
	return p, nil
}

// Sanitize turns an uploaded file name into a safe one: any folder part is dropped,
// characters other than letters, digits, spaces and . _ - ( ) become '-', runs of '-' collapse,
// leading dots and dashes go (no hidden files), and the name is shortened to MaxNameLen
// bytes keeping its extension. A name with nothing left becomes "file" plus its extension.
func Sanitize(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.ToValidUTF8(name, "")
	var b strings.Builder
	dash := false
	for _, r := range strings.TrimSpace(name) {
		ok := unicode.IsLetter(r) || unicode.IsDigit(r) || r == ' ' || r == '.' || r == '_' || r == '(' || r == ')' || r == '-'
		if !ok || r == '-' {
			if !dash {
				b.WriteByte('-')
			}
			dash = true
			continue
		}
		dash = false
		b.WriteRune(r)
	}
	out := strings.TrimLeft(b.String(), ".- ")
	out = strings.TrimRight(out, ". ")
	ext := path.Ext(out)
	if len(ext) > 20 {
		ext = ""
	}
	if strings.TrimSuffix(out, ext) == "" {
		out = "file" + ext
	}
	if len(out) > MaxNameLen {
		stem := strings.TrimSuffix(out, ext)
		stem = truncateUTF8(stem, MaxNameLen-len(ext))
		out = stem + ext
	}
	if strings.HasSuffix(out, MetaSuffix) {
		out = strings.TrimSuffix(out, MetaSuffix) + "-meta.yaml"
	}
	return out
}

func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// assetMIME maps lower-case extensions to MIME types (Madori's table).
var assetMIME = map[string]string{
	"jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif",
	"svg": "image/svg+xml", "webp": "image/webp", "ico": "image/x-icon", "avif": "image/avif",
	"pdf": "application/pdf", "doc": "application/msword",
	"docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	"xls":  "application/vnd.ms-excel",
	"xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	"mp4":  "video/mp4", "webm": "video/webm", "mov": "video/quicktime",
	"mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg",
	"html": "text/html", "htm": "text/html", "css": "text/css", "js": "application/javascript",
	"mjs": "application/javascript", "cjs": "application/javascript",
	"json": "application/json", "xml": "application/xml",
	"zip": "application/zip", "tar": "application/x-tar", "gz": "application/gzip",
	"woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
	"txt": "text/plain", "csv": "text/csv", "md": "text/markdown",
}

// MIMEType returns the MIME type of a file name by its extension, case-insensitively;
// unknown extensions are application/octet-stream. Content is never sniffed for this.
func MIMEType(name string) string {
	if t, ok := assetMIME[Ext(name)]; ok {
		return t
	}
	return "application/octet-stream"
}

// Ext returns a name's extension without the dot, lower-cased.
func Ext(name string) string {
	return strings.ToLower(strings.TrimPrefix(path.Ext(name), "."))
}

// IsActive reports whether a file name has an extension whose only use is as a web page or
// script: HTML and XHTML pages, XSLT style sheets (which turn any XML into a page), web archives,
// HTML applications and JavaScript. Uploads refuse them. Other types a browser can render as a
// document (XML, SVG, feeds) are accepted as data and images; the assetfiles group serves every
// file sandboxed, so neither these nor a file copied in by hand run on the site's origin.
func IsActive(name string) bool {
	switch Ext(name) {
	case "html", "htm", "xhtml", "xht", "shtml", "xsl", "xslt", "mht", "mhtml", "hta", "js", "mjs", "cjs":
		return true
	}
	return false
}
