package site

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	ttemplate "text/template"

	"cms/content"
)

// Limits on a views folder: a template set is parsed in memory.
const (
	maxViewFiles = 500
	maxViewBytes = 1 << 20 // per file
)

//go:embed theme
var themeFS embed.FS

// viewSet is one parsed set of templates for one site: each page template joined with the
// layout and the partials, ready to execute.
type viewSet struct {
	pages  map[string]*template.Template // "entry.html" -> layout + partials + page
	errs   map[string]error              // pages that failed to parse, by name
	layout bool                          // layout.html exists: pages render inside it
	text   map[string]*ttemplate.Template
	empty  bool      // no files at all
	reads  readsMemo // what each page's templates read, for the static cache (record.go)
}

// lookup returns the first of names the set has. A page whose file failed to parse is found
// with its error. (nil, "", nil) means the set has none of them.
func (vs *viewSet) lookup(names []string) (*template.Template, string, error) {
	for _, n := range names {
		if n == "layout.html" || strings.Contains(n, "/") {
			continue
		}
		if err, ok := vs.errs[n]; ok {
			return nil, n, err
		}
		if t, ok := vs.pages[n]; ok {
			return t, n, nil
		}
	}
	return nil, "", nil
}

// execute runs a page: inside the layout when there is one.
func (vs *viewSet) execute(w io.Writer, t *template.Template, p *Page) error {
	if vs.layout {
		return t.ExecuteTemplate(w, "layout.html", p)
	}
	return t.Execute(w, p)
}

// source is the files of a views folder: name ("entry.html", "partials/nav.html") -> text.
type source map[string]string

// parse builds a set from files for one site, with its functions.
func parse(files source, funcs template.FuncMap) *viewSet {
	vs := &viewSet{pages: map[string]*template.Template{}, errs: map[string]error{}, text: map[string]*ttemplate.Template{}, empty: len(files) == 0}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	base := template.New("").Funcs(funcs)
	var baseErr error
	for _, n := range names {
		if n == "layout.html" || strings.HasPrefix(n, "partials/") && strings.HasSuffix(n, ".html") {
			if _, err := base.New(n).Parse(files[n]); err != nil && baseErr == nil {
				baseErr = err
			}
			vs.layout = vs.layout || n == "layout.html"
		}
	}
	if vs.layout && baseErr == nil {
		// The layout shows the page through {{template "main" .}}; a layout without it still
		// parses, and the page then never shows.
		if base.Lookup("main") == nil {
			_, baseErr = base.New("main").Parse("")
		}
	}
	for _, n := range names {
		switch {
		case n == "robots.txt" || n == "humans.txt" || n == "sitemap.xml":
			t, err := ttemplate.New(n).Parse(files[n])
			if err != nil {
				vs.errs[n] = err
				continue
			}
			vs.text[n] = t
			continue
		case n == "layout.html", strings.Contains(n, "/"), !strings.HasSuffix(n, ".html"):
			continue
		}
		if baseErr != nil {
			vs.errs[n] = baseErr
			continue
		}
		t, err := base.Clone()
		if err == nil {
			_, err = t.New(n).Parse(files[n])
		}
		if err == nil && vs.layout {
			_, err = t.New("main").Parse(`{{template "` + n + `" .}}`)
		}
		if err == nil {
			t = t.Lookup(n)
			// Escaping happens on the first execution; doing it now reports the errors it finds
			// at once and keeps the first request as fast as the others.
			err = prepare(t, vs.layout)
		}
		if err != nil {
			vs.errs[n] = err
			continue
		}
		vs.pages[n] = t
	}
	return vs
}

// prepare runs the escaper over a page (and its layout) without output.
func prepare(t *template.Template, layout bool) error {
	name := t.Name()
	if layout {
		name = "layout.html"
	}
	err := t.ExecuteTemplate(failWriter{}, name, nil)
	var te *template.Error
	if errors.As(err, &te) {
		return err // an escaping error: the template cannot render safely
	}
	return nil // an execution error on nil data says nothing about a real page
}

// failWriter stops an execution at its first output: escaping has happened by then.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("stop") }

// readFS reads the template files of a folder tree, within the limits.
func readFS(fsys fs.FS) (source, error) {
	files := source{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		if d.IsDir() || !viewFile(p) {
			return nil
		}
		if len(files) >= maxViewFiles {
			return fmt.Errorf("more than %d template files", maxViewFiles)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Size() > maxViewBytes {
			return fmt.Errorf("%s: larger than %d bytes", p, maxViewBytes)
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		files[p] = string(b)
		return nil
	})
	return files, err
}

// viewFile reports whether a path is a template: *.html at the top or in partials/, or one of
// the text files a site may override.
func viewFile(p string) bool {
	switch p {
	case "robots.txt", "humans.txt", "sitemap.xml":
		return true
	}
	dir, file := path.Split(p)
	return (dir == "" || dir == "partials/") && strings.HasSuffix(file, ".html") && !strings.HasPrefix(file, ".")
}

// loadTheme parses the built-in theme once per configured site.
func loadTheme(s *site) (map[string]*viewSet, error) {
	sub, err := fs.Sub(themeFS, "theme")
	if err != nil {
		return nil, err
	}
	files, err := readFS(sub)
	if err != nil {
		return nil, err
	}
	out := map[string]*viewSet{}
	for _, st := range s.sites.List() {
		vs := parse(files, s.funcs(st))
		if len(vs.errs) > 0 {
			return nil, fmt.Errorf("built-in theme: %v", vs.errs)
		}
		out[st.Handle] = vs
	}
	return out, nil
}

func (s *site) themeSet(st content.Site) *viewSet { return s.theme[st.Handle] }

// views holds the site's own templates, parsed per site, and re-parses them when a file of the
// folder changes (checked at most every ReloadEvery).
type views struct {
	s       *site
	mu      sync.Mutex
	checked time.Time
	stamp   string
	gen     uint64 // grows with every reload
	sets    map[string]*viewSet
}

func newViews(s *site) *views { return &views{s: s, sets: map[string]*viewSet{}} }

// set returns the site's current set (empty when it has no views folder).
func (v *views) set(st content.Site) *viewSet {
	vs, _ := v.current(st)
	return vs
}

// current returns the site's current set and the generation of the folder it was read from.
func (v *views) current(st content.Site) (*viewSet, uint64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	now := v.s.Now()
	if v.checked.IsZero() || v.s.ReloadEvery == 0 || now.Sub(v.checked) >= v.s.ReloadEvery {
		v.checked = now
		if stamp := v.stampOf(); stamp != v.stamp || len(v.sets) == 0 {
			v.stamp = stamp
			v.gen++
			v.load()
		}
	}
	return v.sets[st.Handle], v.gen
}

// stampOf describes the folder's files by name, size and modification time.
func (v *views) stampOf() string {
	if v.s.Views == "" {
		return ""
	}
	var b strings.Builder
	_ = fs.WalkDir(os.DirFS(v.s.Views), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !viewFile(p) {
			return nil
		}
		if info, err := d.Info(); err == nil {
			fmt.Fprintf(&b, "%s\x00%d\x00%d\n", p, info.Size(), info.ModTime().UnixNano())
		}
		return nil
	})
	return b.String()
}

func (v *views) load() {
	files := source{}
	if v.s.Views != "" {
		var err error
		files, err = readFS(os.DirFS(v.s.Views))
		if err != nil {
			v.s.Log.Error("site templates cannot be read: using the built-in theme", "folder", v.s.Views, "err", err)
			files = source{}
		}
	}
	for _, st := range v.s.sites.List() {
		vs := parse(files, v.s.funcs(st))
		for n, err := range vs.errs {
			v.s.Log.Error("template does not parse", "template", n, "err", err)
		}
		v.sets[st.Handle] = vs
	}
}

// executeText runs a site's text override (robots.txt, humans.txt, sitemap.xml) into a buffer.
func executeText(t *ttemplate.Template, data any) ([]byte, error) {
	var b bytes.Buffer
	err := t.Execute(&b, data)
	return b.Bytes(), err
}
