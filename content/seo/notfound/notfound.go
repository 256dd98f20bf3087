// Package notfound records the public 404s of each site (notes 14.6), so editors can see what
// visitors and links ask for and promote a path to a redirect. Recording costs a request a
// map lookup and a channel send: observations are de-duplicated in memory per site and path
// per minute (a bounded key set) and written by one goroutine through a bounded queue, so a
// flood of 404s drops observations instead of taking memory or time. The records are
// operational state: kept under seo.operationalStoragePath, one JSON file per site, written
// atomically, never served publicly and never shared between sites.
package notfound

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"cms/content"
	"cms/content/internal/atomicfile"
	"cms/content/seo/redirects"
)

// Limits (notes 14.6).
const (
	MaxRecords   = 1000 // records kept per site
	MaxKeys      = 1000 // distinct site+path observations accepted per minute
	QueueSize    = 1024 // observations waiting for the writer
	MaxFileBytes = 2 << 20
)

// skippedSuffixes are asset-like paths: a missing stylesheet is not a page editors can fix
// with a redirect, and bots ask for them by the thousand.
var skippedSuffixes = []string{".css", ".js", ".map", ".ico", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".woff", ".woff2"}

// Observation is one not-found path of a site.
type Observation struct {
	OpaqueID       string  `json:"opaqueId"`
	Site           string  `json:"site"`
	Path           string  `json:"path"`
	Query          *string `json:"query"` // "redacted" when a request had a query (its value is never kept), else null
	FirstSeen      string  `json:"firstSeen"`
	LastSeen       string  `json:"lastSeen"`
	Hits           int     `json:"hits"`
	ReferrerOrigin *string `json:"referrerOrigin"`
}

// Options configure a Tracker.
type Options struct {
	// Dir is seo.operationalStoragePath; the records are Dir/not-found/{site}.json.
	Dir string
	// Sites are the configured site handles; observations for any other are dropped.
	Sites []string
	// RetentionDays is seo.reportRetentionDays: a record not seen for longer is dropped.
	RetentionDays int
	// WriteEvery is how often changed records are written while observations arrive: 0 means
	// every second, negative after every batch. Flush and Close write at once.
	WriteEvery time.Duration
	Now        func() time.Time
	Log        *slog.Logger
	NoSync     bool // skip fsyncs (tests)
}

// Tracker records not-found observations. It is safe for concurrent use.
type Tracker struct {
	o     Options
	queue chan item
	done  chan struct{}

	dmu    sync.Mutex
	window int64               // the minute of the keys
	keys   map[string]struct{} // site+"\x00"+path seen this minute

	mu    sync.Mutex // the records and their files
	sites map[string]*siteRecords

	closeOnce sync.Once
	stopped   chan struct{} // closed by Close: the writer is asked to stop
}

type siteRecords struct {
	list  []Observation
	index map[string]int // path → position in list; nil after list changes shape
	stamp stamp          // of the file as last read or written
}

type stamp struct {
	size int64
	mod  time.Time
}

// item is one queued observation, a flush request (flushed non-nil) or the stop request.
type item struct {
	obs     Observation
	flushed chan struct{}
	stop    bool
}

// Open starts a tracker; Close stops it after writing what is queued.
func Open(o Options) (*Tracker, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.RetentionDays < 1 {
		o.RetentionDays = 90
	}
	if o.WriteEvery == 0 {
		o.WriteEvery = time.Second
	}
	if o.Dir == "" {
		return nil, errors.New("notfound: Dir is required")
	}
	o.Sites = slices.DeleteFunc(slices.Clone(o.Sites), func(s string) bool { return !content.IsName(s, 64, true, "-") })
	t := &Tracker{o: o, queue: make(chan item, QueueSize), done: make(chan struct{}), stopped: make(chan struct{}),
		keys: map[string]struct{}{}, sites: map[string]*siteRecords{}}
	go t.run()
	return t, nil
}

// Skipped reports whether a request path is never recorded: not a path, a dot-segment
// (/.env, /a/.git/x), or an asset-like suffix.
func Skipped(path string) bool {
	if path == "" || path[0] != '/' || strings.Contains(path, "/.") {
		return true
	}
	lower := strings.ToLower(path)
	for _, s := range skippedSuffixes {
		if strings.HasSuffix(lower, s) {
			return true
		}
	}
	return false
}

// Record notes that path (as requested, percent-encoded) was not found on site. It never
// blocks: an observation that is a repeat within the minute, over the minute's key budget, or
// finds the queue full is dropped. It reports whether the observation was queued.
func (t *Tracker) Record(site, path string, hasQuery bool, referrer string) bool {
	if Skipped(path) || !slices.Contains(t.o.Sites, site) {
		return false
	}
	p, err := redirects.NormalizePath(path)
	if err != nil || Skipped(p) {
		return false
	}
	now := t.o.Now()
	key := site + "\x00" + p
	t.dmu.Lock()
	if m := now.Unix() / 60; m != t.window {
		t.window = m
		clear(t.keys)
	}
	_, seen := t.keys[key]
	full := len(t.keys) >= MaxKeys
	if !seen && !full {
		t.keys[key] = struct{}{}
	}
	t.dmu.Unlock()
	if seen || full {
		return false
	}
	ts := now.UTC().Format(time.RFC3339)
	o := Observation{Site: site, Path: p, FirstSeen: ts, LastSeen: ts, Hits: 1, ReferrerOrigin: refOrigin(referrer)}
	if hasQuery {
		o.Query = &redacted
	}
	select {
	case <-t.done:
		return false
	case t.queue <- item{obs: o}:
		return true
	default:
		return false
	}
}

var redacted = "redacted"

// refOrigin keeps only the origin of an http(s) referrer.
func refOrigin(r string) *string {
	if r == "" {
		return nil
	}
	u, err := url.Parse(r)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.ContainsAny(u.Host, " \\") {
		return nil
	}
	o := redirects.Origin(u)
	return &o
}

// run is the writer: it merges what is queued into the records, a batch at a time, and
// writes the sites changed at most once per WriteEvery (at once for a flush or on Close), so a
// flood of 404s costs one file write a second, not one per observation.
func (t *Tracker) run() {
	defer close(t.done)
	dirty := map[string]bool{}
	var batch []Observation
	var flushes []chan struct{}
	var timer *time.Timer
	var due <-chan time.Time
	stop := false
	handle := func(it item) {
		switch {
		case it.stop:
			stop = true
		case it.flushed != nil:
			flushes = append(flushes, it.flushed)
		default:
			batch = append(batch, it.obs)
		}
	}
	for !stop {
		fired := false
		select {
		case it := <-t.queue:
			handle(it)
		case <-due:
			fired, due = true, nil
		case <-t.stopped:
			stop = true
		}
	drain:
		for len(batch) < QueueSize {
			select {
			case it := <-t.queue:
				handle(it)
			default:
				break drain
			}
		}
		if len(batch) > 0 {
			t.mu.Lock()
			loaded := map[string]*siteRecords{}
			for _, o := range batch {
				sr := loaded[o.Site]
				if sr == nil {
					sr = t.loadLocked(o.Site)
					loaded[o.Site] = sr
				}
				sr.merge(o)
				dirty[o.Site] = true
				if len(sr.list) >= 2*MaxRecords { // memory stays bounded between writes
					sr.list, sr.index = t.prune(sr.list), nil
				}
			}
			t.mu.Unlock()
			batch = batch[:0]
		}
		if len(dirty) > 0 {
			if fired || stop || len(flushes) > 0 || t.o.WriteEvery < 0 {
				t.mu.Lock()
				for site := range dirty {
					if err := t.writeLocked(site); err != nil {
						t.o.Log.Error("not-found observations not written", "site", site, "err", err)
					}
				}
				t.mu.Unlock()
				clear(dirty)
				if timer != nil {
					timer.Stop()
					timer, due = nil, nil
				}
			} else if due == nil {
				timer = time.NewTimer(t.o.WriteEvery)
				due = timer.C
			}
		}
		for _, f := range flushes {
			close(f)
		}
		flushes = flushes[:0]
	}
}

// merge adds one observation to a site's records.
func (sr *siteRecords) merge(o Observation) {
	if sr.index == nil {
		sr.index = make(map[string]int, len(sr.list))
		for i, r := range sr.list {
			sr.index[r.Path] = i
		}
	}
	if i, ok := sr.index[o.Path]; ok {
		r := &sr.list[i]
		r.Hits++
		r.LastSeen = o.LastSeen
		if o.Query != nil {
			r.Query = o.Query
		}
		if o.ReferrerOrigin != nil {
			r.ReferrerOrigin = o.ReferrerOrigin
		}
		return
	}
	o.OpaqueID = newID()
	sr.index[o.Path] = len(sr.list)
	sr.list = append(sr.list, o)
}

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "nf_" + hex.EncodeToString(b[:])
}

func (t *Tracker) file(site string) string {
	return filepath.Join(t.o.Dir, "not-found", site+".json")
}

// loadLocked returns a site's records, re-read when the file changed since it was last read or
// written (another process, a Delete through the API's process).
func (t *Tracker) loadLocked(site string) *siteRecords {
	sr := t.sites[site]
	if sr == nil {
		sr = &siteRecords{}
		t.sites[site] = sr
	}
	info, err := os.Stat(t.file(site))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && sr.stamp != (stamp{}) {
			sr.list, sr.index, sr.stamp = nil, nil, stamp{}
		}
		return sr
	}
	st := stamp{info.Size(), info.ModTime()}
	if st == sr.stamp {
		return sr
	}
	sr.stamp = st
	sr.list, sr.index = nil, nil
	b, err := os.ReadFile(t.file(site))
	if err == nil && len(b) > MaxFileBytes {
		err = fmt.Errorf("larger than %d bytes", MaxFileBytes)
	}
	if err == nil {
		err = json.Unmarshal(b, &sr.list)
	}
	if err != nil {
		t.o.Log.Warn("not-found observations unreadable; starting afresh", "site", site, "err", err)
		sr.list = nil
	}
	sr.list = slices.DeleteFunc(sr.list, func(o Observation) bool { return o.Site != site || o.Path == "" })
	return sr
}

// prune applies retention and the record cap, newest first.
func (t *Tracker) prune(list []Observation) []Observation {
	cutoff := t.o.Now().Add(-time.Duration(t.o.RetentionDays) * 24 * time.Hour).UTC().Format(time.RFC3339)
	list = slices.DeleteFunc(list, func(o Observation) bool { return o.LastSeen < cutoff })
	slices.SortStableFunc(list, func(a, b Observation) int {
		if c := strings.Compare(b.LastSeen, a.LastSeen); c != 0 {
			return c
		}
		return b.Hits - a.Hits
	})
	if len(list) > MaxRecords {
		list = list[:MaxRecords]
	}
	return list
}

// writeLocked prunes and writes a site's records atomically (t.mu held).
func (t *Tracker) writeLocked(site string) error {
	sr := t.sites[site]
	if sr == nil {
		return nil
	}
	sr.list, sr.index = t.prune(sr.list), nil
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	list := sr.list
	if list == nil {
		list = []Observation{}
	}
	if err := enc.Encode(list); err != nil {
		return err
	}
	dir := filepath.Join(t.o.Dir, "not-found")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	if err := atomicfile.Write(root, site+".json", b.Bytes(), atomicfile.Options{Perm: 0o600, NoSync: t.o.NoSync}); err != nil {
		return err
	}
	if info, err := os.Stat(t.file(site)); err == nil {
		sr.stamp = stamp{info.Size(), info.ModTime()}
	}
	return nil
}

// List returns a site's records, most recently seen first (then most hit).
func (t *Tracker) List(site string) ([]Observation, error) {
	if !slices.Contains(t.o.Sites, site) {
		return nil, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.prune(slices.Clone(t.loadLocked(site).list)), nil
}

// Get returns one record of site, or a NotFound error.
func (t *Tracker) Get(site, id string) (Observation, error) {
	list, err := t.List(site)
	if err != nil {
		return Observation{}, err
	}
	for _, o := range list {
		if o.OpaqueID == id {
			return o, nil
		}
	}
	return Observation{}, notFound(id)
}

func notFound(id string) error {
	return &content.Error{Kind: content.NotFound, Op: "notfound", Code: redirects.CodeNotFound, Message: fmt.Sprintf("Not-found record %q not found", id)}
}

// Delete removes a record by its opaque id, from whichever site holds it; it returns the site.
func (t *Tracker) Delete(id string) (Observation, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, site := range t.o.Sites {
		sr := t.loadLocked(site)
		i := slices.IndexFunc(sr.list, func(o Observation) bool { return o.OpaqueID == id })
		if i < 0 {
			continue
		}
		o := sr.list[i]
		sr.list, sr.index = slices.Delete(sr.list, i, i+1), nil
		if err := t.writeLocked(site); err != nil {
			return o, content.Internalf("notfound.Delete", site, err)
		}
		return o, nil
	}
	return Observation{}, notFound(id)
}

// DeletePath removes a site's record of path (promoted to a redirect), if there is one.
func (t *Tracker) DeletePath(site, path string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !content.IsName(site, 64, true, "-") || !slices.Contains(t.o.Sites, site) {
		return nil
	}
	sr := t.loadLocked(site)
	n := len(sr.list)
	sr.list, sr.index = slices.DeleteFunc(sr.list, func(o Observation) bool { return o.Path == path }), nil
	if len(sr.list) == n {
		return nil
	}
	if err := t.writeLocked(site); err != nil {
		return content.Internalf("notfound.DeletePath", site, err)
	}
	return nil
}

// Flush waits until everything queued before it is written.
func (t *Tracker) Flush() {
	f := make(chan struct{})
	select {
	case t.queue <- item{flushed: f}:
		<-f
	case <-t.done:
	}
}

// Close writes what is queued and stops the writer; later observations are dropped.
func (t *Tracker) Close() error {
	t.closeOnce.Do(func() { close(t.stopped) })
	<-t.done
	return nil
}
