package fsstore

import (
	"fmt"
	"io/fs"
	"os"
	"sync"
)

// dirSyncer makes new folder entries durable with group commit: writers that linked a file into
// the same folder while another writer's folder fsync was under way share the next one, so under
// concurrent submissions the folder is flushed once per batch instead of once per file. A writer
// returns only after an fsync that began after its own link has succeeded, so nothing is
// acknowledged before it is durable; when that fsync fails, every writer of its batch gets the
// error.
type dirSyncer struct {
	mu     sync.Mutex
	groups map[string]*syncGroup                         // by folder path; removed when no writer waits on it
	flush  func(path string, members []syncMember) error // flushBatch; tests count calls
}

// syncGroup is the group commit of one folder path.
type syncGroup struct {
	cond    sync.Cond // on dirSyncer.mu
	users   int       // writers holding the group
	running bool      // a leader is flushing
	next    *syncBatch
}

// syncBatch is the writers whose links the next flush covers.
type syncBatch struct {
	members []syncMember
	done    chan struct{}
	err     error
}

// syncMember is one writer's open folder and what it is, so that a leader flushes a folder
// replaced meanwhile (another folder now at the path) through the member's own handle.
type syncMember struct {
	dir  *os.File
	info fs.FileInfo
}

// sync returns once dir (the open folder at path, into which the caller has linked its file)
// has been fsync'd, by the caller or by another writer of the same folder.
func (ds *dirSyncer) sync(path string, dir *os.File) error {
	info, err := dir.Stat()
	if err != nil {
		return fmt.Errorf("sync folder %s: %w", path, err)
	}
	ds.mu.Lock()
	g := ds.groups[path]
	if g == nil {
		if ds.groups == nil {
			ds.groups = make(map[string]*syncGroup)
		}
		g = &syncGroup{}
		g.cond.L = &ds.mu
		ds.groups[path] = g
	}
	g.users++
	defer func() {
		if g.users--; g.users == 0 {
			delete(ds.groups, path)
		}
		ds.mu.Unlock()
	}()
	if g.next == nil {
		g.next = &syncBatch{done: make(chan struct{})}
	}
	b := g.next
	b.members = append(b.members, syncMember{dir, info})
	for g.running {
		g.cond.Wait()
		select {
		case <-b.done:
			return b.err // flushed by another writer
		default:
		}
	}
	// Lead: flush the batch, which no one can join any more.
	g.running, g.next = true, nil
	ds.mu.Unlock()
	flush := ds.flush
	if flush == nil {
		flush = flushBatch
	}
	b.err = flush(path, b.members)
	close(b.done)
	ds.mu.Lock()
	g.running = false
	g.cond.Broadcast()
	return b.err
}

// flushBatch fsyncs the folder once, through the first member's handle, and again through the
// handle of any member whose folder is another (the path was replaced between their writes).
func flushBatch(path string, members []syncMember) error {
	lead := members[0]
	if err := lead.dir.Sync(); err != nil {
		return fmt.Errorf("sync folder %s: %w", path, err)
	}
	var synced []fs.FileInfo
	for _, m := range members[1:] {
		if os.SameFile(m.info, lead.info) || containsSame(synced, m.info) {
			continue
		}
		if err := m.dir.Sync(); err != nil {
			return fmt.Errorf("sync folder %s: %w", path, err)
		}
		synced = append(synced, m.info)
	}
	return nil
}

func containsSame(infos []fs.FileInfo, fi fs.FileInfo) bool {
	for _, x := range infos {
		if os.SameFile(x, fi) {
			return true
		}
	}
	return false
}
