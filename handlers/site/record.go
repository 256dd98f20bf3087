package site

import (
	"html/template"
	"strings"
	"sync"
	tparse "text/template/parse"
	"time"

	"cms/content"
	"cms/content/pagecache"
)

// The static page cache (content/pagecache) purges a stored page when something it read
// changes, so a page being cached records its reads on the recorder of its request. The
// template functions are bound per site when the templates are parsed, not per request, and so
// cannot reach that recorder; instead a page's templates (with the layout and partials) are
// read once for the data calls they make, and each render records those calls' reads along
// with its own entry or term. That is a superset of what one render read (a branch not taken
// still counts), which purges a page too often at worst, never too rarely.

// recheck makes the next reads of the templates and the data files look at their folders
// again. A stored page is kept until something it read changes, and a purge is followed at
// once by a render: that render must not use copies up to ReloadEvery old.
func (s *site) recheck() {
	s.views.mu.Lock()
	s.views.checked = time.Time{}
	s.views.mu.Unlock()
	s.data.mu.Lock()
	s.data.checked = time.Time{}
	s.data.mu.Unlock()
}

// readCall is a data function a template calls, with its string-literal arguments (nil where
// an argument is computed).
type readCall struct {
	fn   string
	args []*string
}

func (c readCall) arg(i int) (string, bool) {
	if i < len(c.args) && c.args[i] != nil {
		return *c.args[i], true
	}
	return "", false
}

// readFuncs are the template functions that read records.
var readFuncs = map[string]bool{"entries": true, "entry": true, "global": true, "nav": true, "terms": true, "term": true, "paginate": true, "tagged": true}

// readsMemo keeps each page template's calls (a viewSet's, dropped with it).
type readsMemo struct {
	mu sync.Mutex
	m  map[*template.Template][]readCall
}

func (r *readsMemo) of(t *template.Template) []readCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	if calls, ok := r.m[t]; ok {
		return calls
	}
	var calls []readCall
	seen := map[string]bool{}
	for _, tt := range t.Templates() {
		if tt.Tree != nil {
			walkReads(tt.Tree.Root, func(c readCall) {
				k := c.fn
				for _, a := range c.args {
					if a == nil {
						k += "\x00?"
					} else {
						k += "\x00=" + *a
					}
				}
				if !seen[k] {
					seen[k] = true
					calls = append(calls, c)
				}
			})
		}
	}
	if r.m == nil {
		r.m = map[*template.Template][]readCall{}
	}
	r.m[t] = calls
	return calls
}

// walkReads calls found for every read function called under n.
func walkReads(n tparse.Node, found func(readCall)) {
	switch x := n.(type) {
	case *tparse.ListNode:
		if x != nil {
			for _, c := range x.Nodes {
				walkReads(c, found)
			}
		}
	case *tparse.ActionNode:
		walkReads(x.Pipe, found)
	case *tparse.IfNode:
		walkBranch(&x.BranchNode, found)
	case *tparse.RangeNode:
		walkBranch(&x.BranchNode, found)
	case *tparse.WithNode:
		walkBranch(&x.BranchNode, found)
	case *tparse.TemplateNode:
		walkReads(x.Pipe, found)
	case *tparse.PipeNode:
		if x != nil {
			for _, c := range x.Cmds {
				walkReads(c, found)
			}
		}
	case *tparse.ChainNode:
		walkReads(x.Node, found)
	case *tparse.CommandNode:
		if len(x.Args) > 0 {
			if id, ok := x.Args[0].(*tparse.IdentifierNode); ok && readFuncs[id.Ident] {
				c := readCall{fn: id.Ident}
				for _, a := range x.Args[1:] {
					if s, ok := a.(*tparse.StringNode); ok {
						c.args = append(c.args, &s.Text)
					} else {
						c.args = append(c.args, nil)
					}
				}
				found(c)
			}
		}
		for _, a := range x.Args {
			walkReads(a, found)
		}
	}
}

func walkBranch(b *tparse.BranchNode, found func(readCall)) {
	walkReads(b.Pipe, found)
	walkReads(b.List, found)
	walkReads(b.ElseList, found)
}

// recordReads records on rec what page p rendered by t may have read.
func (q *request) recordReads(rec *pagecache.Recorder, reads *readsMemo, t *template.Template, p *Page) {
	if p.Entry != nil {
		rec.Entry(p.Entry.Collection, p.Entry.Slug)
	}
	if p.Term != nil {
		rec.Taxonomy(p.Term.Taxonomy, p.Term.Slug)
	}
	allLists := func() {
		for _, c := range q.s.Store.Collections() {
			rec.List(c.Handle)
		}
	}
	for _, c := range reads.of(t) {
		switch c.fn {
		case "entries":
			if coll, ok := c.arg(0); ok {
				rec.List(coll)
			} else {
				allLists()
			}
		case "paginate": // paginate . "blog" ...
			if coll, ok := c.arg(1); ok {
				rec.List(coll)
			} else {
				allLists()
			}
		case "entry":
			coll, ok1 := c.arg(0)
			slug, ok2 := c.arg(1)
			switch {
			case ok1 && ok2:
				rec.Entry(coll, slug)
			case ok1:
				rec.List(coll)
			default:
				allLists()
			}
		case "tagged":
			tax, ok := c.arg(0)
			for _, coll := range q.s.Store.Collections() {
				if !ok || contains(coll.Taxonomies, tax) {
					rec.List(coll.Handle)
				}
			}
		case "terms", "term":
			tax, ok := c.arg(0)
			if !ok {
				rec.Until(q.s.Now()) // which taxonomy is not known: not kept
				continue
			}
			slug, _ := c.arg(1) // "" = the whole term list
			rec.Taxonomy(tax, slug)
		case "global":
			if h, ok := c.arg(0); ok {
				rec.Global(h)
			} else {
				rec.Until(q.s.Now())
			}
		case "nav":
			h, ok := c.arg(0)
			if !ok {
				rec.Until(q.s.Now())
				continue
			}
			rec.Navigation(h)
			// The links of entry references are the entries' URLs.
			if tree, err := q.s.data.navigation(h); err == nil {
				recordNavEntries(rec, tree.Items, 0)
			}
		}
	}
}

func recordNavEntries(rec *pagecache.Recorder, items []content.NavItem, depth int) {
	if depth > content.MaxNesting {
		return
	}
	for _, it := range items {
		if coll, slug, ok := strings.Cut(it.Entry, "/"); ok {
			rec.Entry(coll, slug)
		}
		recordNavEntries(rec, it.Children, depth+1)
	}
}
