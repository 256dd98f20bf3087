// Package markdown renders entry bodies to HTML with goldmark (GitHub-flavoured Markdown). Raw
// HTML inside Markdown is escaped, so it shows as text, unless the site opts in.
package markdown

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// Renderer converts Markdown to HTML. It is safe for concurrent use.
type Renderer struct {
	md goldmark.Markdown
}

// New returns a renderer; allowHTML passes raw HTML through instead of escaping it.
func New(allowHTML bool) *Renderer {
	opts := []renderer.Option{html.WithXHTML()}
	if allowHTML {
		opts = append(opts, html.WithUnsafe())
	} else {
		opts = append(opts, renderer.WithNodeRenderers(util.Prioritized(escapeRaw{}, 100)))
	}
	md := goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		goldmark.WithRendererOptions(opts...),
	)
	return &Renderer{md: md}
}

// Render converts src to HTML.
func (r *Renderer) Render(src string) (string, error) {
	w, _ := outs.Get().(*out)
	if w == nil {
		w = new(out)
	}
	defer w.put()
	if err := r.md.Convert([]byte(src), w); err != nil {
		return "", fmt.Errorf("render markdown: %w", err)
	}
	return w.String(), nil
}

// out is a reused output buffer that goldmark writes to directly: as a util.BufWriter it is not
// wrapped in a bufio.Writer of its own, and a reused buffer does not grow again for every body
// (the two were a sixth of the bytes a render allocated).
type out struct{ bytes.Buffer }

var outs sync.Pool

func (w *out) Buffered() int { return 0 }
func (w *out) Flush() error  { return nil }

// maxPooled is the largest buffer put back for reuse: a rare huge body does not stay in memory.
const maxPooled = 1 << 20

func (w *out) put() {
	if w.Cap() <= maxPooled {
		w.Reset()
		outs.Put(w)
	}
}

var _ util.BufWriter = (*out)(nil)

// escapeRaw renders raw HTML blocks and inline HTML as escaped text.
type escapeRaw struct{}

func (escapeRaw) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
	reg.Register(ast.KindRawHTML, renderRawHTML)
}

func renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.HTMLBlock)
	if entering {
		_, _ = w.WriteString("<p>")
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			_, _ = w.Write(util.EscapeHTML(seg.Value(source)))
		}
		if n.HasClosure() {
			_, _ = w.Write(util.EscapeHTML(n.ClosureLine.Value(source)))
		}
	} else {
		_, _ = w.WriteString("</p>\n")
	}
	return ast.WalkContinue, nil
}

func renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.RawHTML)
	for i := 0; i < n.Segments.Len(); i++ {
		seg := n.Segments.At(i)
		_, _ = w.Write(util.EscapeHTML(seg.Value(source)))
	}
	return ast.WalkSkipChildren, nil
}
