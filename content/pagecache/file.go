package pagecache

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"
	"time"

	"cms/content"
	"cms/content/internal/atomicfile"
)

// File is the file driver. Each page lives in a folder of its own under the storage folder:
//
//	<site>/<path>/index.html      the page, for a front web server (try_files)
//	<site>/<path>/index.html.gz   its gzip variant (nginx gzip_static)
//	<site>/<path>/index.html.br   its Brotli variant (brotli_static)
//	<site>/<path>/.page           the record the service serves from: headers, ETag, what the
//	                              page read, and the three bodies
//
// The root page is <site>/index.html. A page keyed with a query string (queryStrings: separate)
// lives in a "?<query>" folder below its path, which a front server never asks for. A page with
// placeholders is written as its record only: a front server could not fill them.
//
// Every file is written atomically (temp file, fsync, rename), the record first, so a crash
// leaves each file whole, old or new. The record alone decides what the service serves.
type File struct {
	root   *os.Root
	noSync bool

	mu      sync.Mutex
	sizes   map[string]int64 // key -> bytes on disk
	bytes   int64
	evicted func(string)
}

// FileOptions tune the file driver.
type FileOptions struct {
	NoSync bool // skip fsyncs (tests only)
}

// recordName is the record file of a page folder.
const recordName = ".page"

// recordMagic starts every record; its version changes with the format.
const recordMagic = "CMSPAGE1\n"

// maxRecordBytes bounds a record read back (a corrupt length must not allocate gigabytes).
const maxRecordBytes = 64 << 20

// OpenFile opens (creating it) the storage folder dir and sweeps temp files a crash left there.
func OpenFile(dir string, o FileOptions) (*File, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("static cache: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("static cache: %w", err)
	}
	if _, err := atomicfile.SweepTemp(context.Background(), root, ".", time.Now().Add(-time.Minute)); err != nil {
		_ = root.Close()
		return nil, fmt.Errorf("static cache: %w", err)
	}
	return &File{root: root, noSync: o.NoSync, sizes: map[string]int64{}}, nil
}

// Close releases the storage folder.
func (f *File) Close() error { return f.root.Close() }

// Shared reports that the folder may be shared with other processes (Lambda functions on EFS):
// the cache then indexes pages it finds there on their first hit.
func (f *File) Shared() bool { return true }

// SetEvicted installs the eviction callback (the file driver never evicts by itself).
func (f *File) SetEvicted(fn func(string)) { f.evicted = fn }

// dir returns the folder of key's page, or ok=false for a key it cannot lay out.
func (f *File) dir(key string) (string, bool) {
	site, p := SplitKey(key)
	if !content.ValidHandle(site) {
		return "", false
	}
	p, q, _ := strings.Cut(p, "?")
	d := site + p
	if p == "/" {
		d = site
	}
	if q != "" {
		if len(q) > 200 {
			return "", false
		}
		d += "/?" + q
	}
	return d, true
}

// Get reads key's record.
func (f *File) Get(key string) (*Page, bool) {
	d, ok := f.dir(key)
	if !ok {
		return nil, false
	}
	p, err := f.read(path.Join(d, recordName))
	if err != nil || p.Key != key {
		return nil, false
	}
	return p, true
}

func (f *File) read(name string) (*Page, error) {
	fh, err := f.root.Open(name)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	raw, err := io.ReadAll(io.LimitReader(fh, maxRecordBytes+1))
	if err != nil {
		return nil, err
	}
	return decodeRecord(raw)
}

func encodeRecord(p *Page) ([]byte, error) {
	meta, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Grow(len(recordMagic) + 16 + len(meta) + len(p.Body) + len(p.Gzip) + len(p.Brotli))
	b.WriteString(recordMagic)
	for _, n := range []int{len(meta), len(p.Body), len(p.Gzip), len(p.Brotli)} {
		_ = binary.Write(&b, binary.BigEndian, uint32(n))
	}
	b.Write(meta)
	b.Write(p.Body)
	b.Write(p.Gzip)
	b.Write(p.Brotli)
	return b.Bytes(), nil
}

var errRecord = errors.New("static cache: bad page record")

func decodeRecord(raw []byte) (*Page, error) {
	rest, ok := bytes.CutPrefix(raw, []byte(recordMagic))
	if !ok || len(rest) < 16 || len(raw) > maxRecordBytes {
		return nil, errRecord
	}
	var n [4]int
	total := 16
	for i := range n {
		n[i] = int(binary.BigEndian.Uint32(rest[i*4:]))
		total += n[i]
	}
	if total != len(rest) {
		return nil, errRecord // short or long: never serve part of a page
	}
	rest = rest[16:]
	p := &Page{}
	if err := json.Unmarshal(rest[:n[0]], p); err != nil {
		return nil, errRecord
	}
	rest = rest[n[0]:]
	p.Body, rest = rest[:n[1]:n[1]], rest[n[1]:]
	if n[2] > 0 {
		p.Gzip = rest[:n[2]:n[2]]
	}
	rest = rest[n[2]:]
	if n[3] > 0 {
		p.Brotli = rest[:n[3]:n[3]]
	}
	return p, nil
}

// Put writes p's record, then (for a page without placeholders) the files a front server
// serves: the compressed variants before index.html, so a front server that finds index.html
// finds its variants.
func (f *File) Put(p *Page) error {
	d, ok := f.dir(p.Key)
	if !ok {
		return nil
	}
	rec, err := encodeRecord(p)
	if err != nil {
		return err
	}
	o := atomicfile.Options{NoSync: f.noSync}
	if err := atomicfile.Write(f.root, path.Join(d, recordName), rec, o); err != nil {
		return fmt.Errorf("static cache: %w", err)
	}
	size := diskSize(p)
	if p.Placeholders {
		f.removeExport(d)
	} else {
		for _, v := range []struct {
			ext  string
			body []byte
		}{{".br", p.Brotli}, {".gz", p.Gzip}, {"", p.Body}} {
			name := path.Join(d, "index.html"+v.ext)
			if v.body == nil {
				_ = f.root.Remove(name)
				continue
			}
			if err := atomicfile.Write(f.root, name, v.body, o); err != nil {
				return fmt.Errorf("static cache: %w", err)
			}
		}
	}
	f.mu.Lock()
	f.bytes += size - f.sizes[p.Key]
	f.sizes[p.Key] = size
	f.mu.Unlock()
	return nil
}

// diskSize is what a page takes on disk, near enough: its record and, unless it has
// placeholders, the exported files.
func diskSize(p *Page) int64 {
	n := int64(len(p.Body) + len(p.Gzip) + len(p.Brotli))
	if p.Placeholders {
		return n + 512
	}
	return 2*n + 512
}

// removeExport removes the front server's files of a page folder, index.html first.
func (f *File) removeExport(d string) {
	for _, ext := range []string{"", ".gz", ".br"} {
		if err := f.root.Remove(path.Join(d, "index.html"+ext)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			continue
		}
	}
}

// Delete removes key's page: the front server's files first, the record last.
func (f *File) Delete(key string) error {
	d, ok := f.dir(key)
	if !ok {
		return nil
	}
	f.removeExport(d)
	if err := f.root.Remove(path.Join(d, recordName)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("static cache: %w", err)
	}
	f.mu.Lock()
	f.bytes -= f.sizes[key]
	delete(f.sizes, key)
	f.mu.Unlock()
	return nil
}

// Clear removes every page under the storage folder and returns how many there were. It
// removes only the files the driver writes (and its temp files) and the folders they leave
// empty, so a storage path set to a folder holding anything else loses nothing else.
func (f *File) Clear() (int, error) {
	n := 0
	var dirs []string
	err := fs.WalkDir(f.root.FS(), ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if e.IsDir() {
			if p != "." {
				dirs = append(dirs, p)
			}
			return nil
		}
		switch name := e.Name(); {
		case name == recordName:
			n++
		case name == "index.html", name == "index.html.gz", name == "index.html.br", atomicfile.IsTemp(name):
		default:
			return nil
		}
		if err := f.root.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("static cache: %w", err)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- { // deepest first; a folder still holding files stays
		_ = f.root.Remove(dirs[i])
	}
	f.mu.Lock()
	f.sizes = map[string]int64{}
	f.bytes = 0
	f.mu.Unlock()
	return n, err
}

// All reads every record under the storage folder; unreadable ones are removed with their page.
func (f *File) All(fn func(p *Page)) error {
	var bad []string
	err := fs.WalkDir(f.root.FS(), ".", func(name string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || e.Name() != recordName {
			return nil
		}
		p, err := f.read(name)
		if err != nil {
			bad = append(bad, path.Dir(name))
			return nil
		}
		if d, ok := f.dir(p.Key); !ok || d != path.Dir(name) {
			bad = append(bad, path.Dir(name))
			return nil
		}
		size := diskSize(p)
		f.mu.Lock()
		f.bytes += size - f.sizes[p.Key]
		f.sizes[p.Key] = size
		f.mu.Unlock()
		fn(p)
		return nil
	})
	for _, d := range bad {
		f.removeExport(d)
		_ = f.root.Remove(path.Join(d, recordName))
	}
	return err
}

// Stats reports the pages this process knows of and their bytes on disk (no budget).
func (f *File) Stats() (int, int64, int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.sizes), f.bytes, 0
}
