package site

import (
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"time"

	"cms/content"
)

// data watches the files a page reads on demand rather than through the entry index (globals,
// navigation trees, settings, taxonomy terms: Deps.DataPaths) and memoizes the documents read
// from them. Its generation grows when one of those files changes (checked at most every
// ReloadEvery), so cached pages, the sitemap and the memos are exact without re-reading files on
// every request.
type data struct {
	s       *site
	mu      sync.Mutex
	checked time.Time
	stamp   string
	gen     uint64

	globals  map[string]map[string]any
	navs     map[string]content.NavTree
	settings map[string]any
	settOK   bool
}

func newData(s *site) *data {
	return &data{s: s, globals: map[string]map[string]any{}, navs: map[string]content.NavTree{}}
}

// generation returns the current generation, re-checking the files when it is time.
func (d *data) generation() uint64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.checkLocked()
	return d.gen
}

func (d *data) checkLocked() {
	now := d.s.Now()
	if !d.checked.IsZero() && d.s.ReloadEvery > 0 && now.Sub(d.checked) < d.s.ReloadEvery {
		return
	}
	d.checked = now
	if st := d.stampOf(); st != d.stamp || d.gen == 0 {
		d.stamp = st
		d.gen++
		clear(d.globals)
		clear(d.navs)
		d.settings, d.settOK = nil, false
	}
}

// stampOf describes every file under the data paths by name, size and modification time.
func (d *data) stampOf() string {
	var b strings.Builder
	for _, root := range d.s.DataPaths {
		_ = fs.WalkDir(os.DirFS(root), ".", func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				fmt.Fprintf(&b, "%s/%s\x00missing\n", root, p)
				return nil
			}
			if info, err := e.Info(); err == nil {
				fmt.Fprintf(&b, "%s/%s\x00%d\x00%d\n", root, p, info.Size(), info.ModTime().UnixNano())
			}
			return nil
		})
		if info, err := os.Stat(root); err == nil && !info.IsDir() {
			fmt.Fprintf(&b, "%s\x00%d\x00%d\n", root, info.Size(), info.ModTime().UnixNano())
		}
	}
	return b.String()
}

// global returns a global's values (nil when it does not exist), read once per generation.
func (d *data) global(h string) map[string]any {
	d.mu.Lock()
	d.checkLocked()
	if v, ok := d.globals[h]; ok {
		d.mu.Unlock()
		return v
	}
	d.mu.Unlock()
	var v map[string]any
	if doc, err := d.s.Store.Global(h); err == nil && doc.Exists {
		v = doc.Data.Plain()
	}
	d.mu.Lock()
	d.globals[h] = v
	d.mu.Unlock()
	return v
}

// navigation returns a navigation tree, read once per generation.
func (d *data) navigation(h string) (content.NavTree, error) {
	d.mu.Lock()
	d.checkLocked()
	if v, ok := d.navs[h]; ok {
		d.mu.Unlock()
		return v, nil
	}
	d.mu.Unlock()
	tree, err := d.s.Store.Navigation(h)
	if err != nil {
		return tree, err
	}
	d.mu.Lock()
	d.navs[h] = tree
	d.mu.Unlock()
	return tree, nil
}

// siteSettings returns content/settings.yaml's values, read once per generation.
func (d *data) siteSettings() map[string]any {
	d.mu.Lock()
	d.checkLocked()
	if d.settOK {
		v := d.settings
		d.mu.Unlock()
		return v
	}
	d.mu.Unlock()
	var v map[string]any
	if doc, err := d.s.Store.Settings(); err == nil && doc.Data != nil {
		v = doc.Data.Plain()
	}
	d.mu.Lock()
	d.settings, d.settOK = v, true
	d.mu.Unlock()
	return v
}
