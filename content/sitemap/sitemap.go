// Package sitemap writes sitemaps.org XML (notes 14.4): an XML declaration line, the root
// element with the protocol's namespace, children indented by two spaces, and a trailing
// newline. Writers stream: each URL goes out as it is given, so memory does not grow with the
// number of URLs.
package sitemap

import (
	"bufio"
	"encoding/xml"
	"io"
	"strconv"
)

// MaxURLs is the protocol's limit of URLs in one sitemap file; beyond it a site serves an index
// of numbered parts.
const MaxURLs = 50000

// Namespace is the sitemaps.org namespace of both the urlset and the index.
const Namespace = "http://www.sitemaps.org/schemas/sitemap/0.9"

// ImageNamespace is the namespace of <image:image>, declared only when a URL has an image.
const ImageNamespace = "http://www.google.com/schemas/sitemap-image/1.1"

// URL is one <url> element.
type URL struct {
	Loc             string
	LastMod         string  // "" = none
	ChangeFrequency string  // "" = none
	Priority        float64 // < 0 = none
	Image           string  // absolute URL of the page's image; "" = none (needs NewURLSetImages)
}

// Writer writes one <urlset> or <sitemapindex>.
type Writer struct {
	w      *bufio.Writer
	close  string
	images bool
	err    error
}

// NewURLSet starts a <urlset> on w.
func NewURLSet(w io.Writer) *Writer {
	return start(w, "urlset", "")
}

// NewURLSetImages starts a <urlset> that also declares the image namespace, for URLs with an
// Image.
func NewURLSetImages(w io.Writer) *Writer {
	return start(w, "urlset", ` xmlns:image="`+ImageNamespace+`"`)
}

// NewIndex starts a <sitemapindex> on w.
func NewIndex(w io.Writer) *Writer {
	return start(w, "sitemapindex", "")
}

func start(w io.Writer, root, extra string) *Writer {
	sw := &Writer{w: bufio.NewWriterSize(w, 32<<10), close: "</" + root + ">\n", images: extra != ""}
	sw.str(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<" + root + ` xmlns="` + Namespace + `"` + extra + ">\n")
	return sw
}

func (sw *Writer) str(s string) {
	if sw.err == nil {
		_, sw.err = sw.w.WriteString(s)
	}
}

func (sw *Writer) text(s string) {
	if sw.err == nil {
		sw.err = xml.EscapeText(sw.w, []byte(s))
	}
}

func (sw *Writer) element(indent, name, value string) {
	sw.str(indent + "<" + name + ">")
	sw.text(value)
	sw.str("</" + name + ">\n")
}

// URL writes one <url> of a urlset.
func (sw *Writer) URL(u URL) error {
	sw.str("  <url>\n")
	sw.element("    ", "loc", u.Loc)
	if u.LastMod != "" {
		sw.element("    ", "lastmod", u.LastMod)
	}
	if u.ChangeFrequency != "" {
		sw.element("    ", "changefreq", u.ChangeFrequency)
	}
	if u.Priority >= 0 {
		sw.element("    ", "priority", strconv.FormatFloat(u.Priority, 'f', 1, 64))
	}
	if u.Image != "" && sw.images {
		sw.str("    <image:image>\n")
		sw.element("      ", "image:loc", u.Image)
		sw.str("    </image:image>\n")
	}
	sw.str("  </url>\n")
	return sw.err
}

// Sitemap writes one <sitemap> of an index.
func (sw *Writer) Sitemap(loc, lastMod string) error {
	sw.str("  <sitemap>\n")
	sw.element("    ", "loc", loc)
	if lastMod != "" {
		sw.element("    ", "lastmod", lastMod)
	}
	sw.str("  </sitemap>\n")
	return sw.err
}

// Flush sends what is buffered (a streaming response calls it after the first URLs).
func (sw *Writer) Flush() error {
	if sw.err == nil {
		sw.err = sw.w.Flush()
	}
	return sw.err
}

// Close ends the root element and flushes.
func (sw *Writer) Close() error {
	sw.str(sw.close)
	return sw.Flush()
}

// Parts is the number of sitemap files n URLs need with at most per in one file: 1 up to per
// (written as a urlset), else the number of numbered parts an index lists.
func Parts(n, per int) int {
	if n <= per {
		return 1
	}
	return (n + per - 1) / per
}
