package fsstore

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"cms/content"
	"cms/content/frontmatter"
	"cms/content/internal/atomicfile"
)

// Form submissions live at content/forms/{form}/{YYYY-MM-DDTHH-MM-SS}-{uuid}.yaml, one YAML file
// each with id, form, submitted_at and data. They are append-only: every submission creates a
// new, uniquely named file and never touches another one, so submitting needs no lock and scales
// with any number of concurrent requests (or processes).
//
// Ids are version 7 UUIDs: their first 48 bits are the submission time in milliseconds, so file
// names sort chronologically even within one second, and the file of an id can be found without
// listing the folder. Submissions written by Madori (version 4 ids) load and are found by a scan.

// Submission sort orders.
const (
	SortNewest = "newest"
	SortOldest = "oldest"
)

// submissionTimeLayout is the time prefix of a submission file name: ISO 8601 without the
// characters file systems dislike.
const submissionTimeLayout = "2006-01-02T15-04-05"

// submittedAtLayout is how submitted_at is written: ISO 8601 in UTC with milliseconds, as a
// JavaScript Date prints it.
const submittedAtLayout = "2006-01-02T15:04:05.000Z"

func (s *Store) submissionDir(form string) string { return s.contentPath("forms", form) }

// parseSubmissionID returns the canonical (lower-case) form of a submission id, which must be a
// UUID written as 36 characters.
func parseSubmissionID(id string) (uuid.UUID, string, bool) {
	if len(id) != 36 {
		return uuid.UUID{}, "", false
	}
	u, err := uuid.Parse(id)
	if err != nil {
		return uuid.UUID{}, "", false
	}
	return u, u.String(), true
}

// submissionFileName is the file name of a submission with id made at t.
func submissionFileName(t time.Time, id string) string {
	return t.UTC().Format(submissionTimeLayout) + "-" + id + ".yaml"
}

// isSubmissionFile reports whether a folder entry name is a stored submission (not a temp file).
func isSubmissionFile(name string) bool {
	return strings.HasSuffix(name, ".yaml") && !strings.HasPrefix(name, ".")
}

// CreateSubmission stores a new submission of form with data, made at at (the store's clock when
// at is zero), and returns it. The file is created exclusively and durably.
func (s *Store) CreateSubmission(form string, data *content.Map, at time.Time) (*content.Submission, error) {
	const op = "fsstore.CreateSubmission"
	if err := s.writable(op); err != nil {
		return nil, err
	}
	if !content.ValidHandle(form) {
		return nil, content.NotFoundf(op, form, "Form %q not found", form)
	}
	if at.IsZero() {
		at = s.now()
	}
	at = at.UTC()
	if data == nil {
		data = content.NewMap(0)
	}
	sub := &content.Submission{ID: content.NewSubmissionID(at), Form: form, SubmittedAt: at.Format(submittedAtLayout), Data: data}
	raw, err := formatSubmission(sub)
	if err != nil {
		return nil, encodeFailed(op, form, err)
	}
	dir, name := s.submissionDir(form), submissionFileName(at, sub.ID)
	if j := s.journal; j != nil {
		// Durable once journaled (forms_journal.go): the file needs no fsync of its own. It is
		// written unnamed while the journal flushes, and named once the flush has succeeded.
		seg, end, err := j.create(form, name, raw)
		switch {
		case err == nil:
			unnamed := s.openUnnamedIn(dir, raw)
			if err = j.wait(end); err == nil {
				err = s.linkNewFile(unnamed, dir, name, raw)
			} else if unnamed != nil {
				unnamed.Close() // never named: gone
			}
			j.done(seg, form, name, err == nil)
			if err != nil {
				return nil, content.Internalf(op, path.Join(dir, name), err)
			}
			s.changed("Received submission "+form+"/"+sub.ID, path.Join(dir, name))
			return sub, nil
		case !errors.Is(err, errJournalOff):
			return nil, content.Internalf(op, path.Join(dir, name), err)
		}
	}
	if err := s.writeNewFile(dir, name, raw, !s.opts.NoSync); err != nil {
		return nil, content.Internalf(op, path.Join(dir, name), err)
	}
	s.changed("Received submission "+form+"/"+sub.ID, path.Join(dir, name))
	return sub, nil
}

// writeNewFile creates dir/name with data, atomically (no reader ever sees part of it),
// exclusively (an existing file is never replaced: a clash of random ids is all but impossible,
// but if it happened it must not overwrite someone else's submission) and durably, creating dir
// if needed. Without sync it skips the fsyncs: the submission journal has made the bytes durable.
//
// It is the submit path's hot spot (and creates entries too), so it does less than
// atomicfile.Write: it works inside the folder (one path lookup instead of one per step), and
// concurrent writers into a folder share its fsync (dirSyncer); and on Linux it writes an unnamed
// file (O_TMPFILE) and links it in, one change to the folder instead of three (create a temp
// file, link it, remove it). Where O_TMPFILE is unavailable (NFS, such as EFS) it falls back to a
// named temp file (a dot file with atomicfile's marker, which listings skip).
func (s *Store) writeNewFile(dir, name string, data []byte, sync bool) error {
	if d, release := s.keptFormDir(dir); d != nil {
		done, err := linkUnnamed(d, name, data, sync)
		if done && err == nil && sync {
			// Concurrent writers into the folder share its fsync (group commit).
			err = s.dirSync.sync(dir, d)
		}
		release()
		if done {
			return err
		}
		// No O_TMPFILE here, or the kept folder was removed: the path the long way.
	}
	return s.writeNewFileAt(dir, name, data, sync)
}

// openUnnamedIn writes data to an unnamed file in the folder dir (openUnnamed), for linkNewFile
// to name; nil when there is none to be had (the folder is missing, no O_TMPFILE).
func (s *Store) openUnnamedIn(dir string, data []byte) *os.File {
	d, release := s.keptFormDir(dir)
	if d == nil {
		return nil
	}
	defer release()
	f, _ := openUnnamed(d, data)
	return f // after a failed write, nil: linkNewFile writes the file anew and reports the error
}

// linkNewFile names the unnamed file f (from openUnnamedIn, or nil) dir/name without fsync,
// exclusively, and closes it; without f, or when it cannot be linked there, it writes the file
// as writeNewFile does.
func (s *Store) linkNewFile(f *os.File, dir, name string, data []byte) error {
	if f != nil {
		defer f.Close()
		if d, release := s.keptFormDir(dir); d != nil {
			done, err := linkUnnamedFile(f, d, name)
			release()
			if done {
				return err
			}
		}
	}
	return s.writeNewFile(dir, name, data, false)
}

// writeNewFileAt is writeNewFile with folder handles of its own, opened by path (creating the
// folder when missing).
func (s *Store) writeNewFileAt(dir, name string, data []byte, sync bool) error {
	root, err := s.root.OpenRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := s.root.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create folder %s: %w", dir, err)
		}
		if sync {
			// The new folder's own entry must survive a crash too.
			if err := atomicfile.SyncDir(s.root, path.Dir(dir)); err != nil {
				return err
			}
		}
		root, err = s.root.OpenRoot(dir)
	}
	if err != nil {
		return fmt.Errorf("open folder %s: %w", dir, err)
	}
	defer root.Close()
	d, err := root.Open(".")
	if err != nil {
		return fmt.Errorf("open folder %s: %w", dir, err)
	}
	defer d.Close()
	done, err := linkUnnamed(d, name, data, sync)
	if !done {
		err = writeViaTemp(root, name, data, sync)
	}
	if err != nil {
		return err
	}
	if sync {
		// Concurrent submissions to a form share the fsync of its folder (group commit).
		return s.dirSync.sync(dir, d)
	}
	return nil
}

// maxKeptFormDirs bounds the form (and collection) folders kept open (one descriptor each).
const maxKeptFormDirs = 64

// keptFormDir returns the folder dir kept open between new files, and a release to call
// when done with it; nil when the folder is missing (the caller creates it by path) or too many
// are kept. As the assets folder (sharedAssetsRoot), a folder replaced on disk is noticed by its
// identity, checked at most once per assetsRecheck; one removed meanwhile refuses new files, and
// the caller then writes by path.
func (s *Store) keptFormDir(dir string) (*os.File, func()) {
	k := &s.formDirs
	for range 3 {
		k.mu.RLock()
		if d := k.m[dir]; d != nil && s.now().UnixNano()-d.checked.Load() < int64(assetsRecheck) {
			return d.dir, k.mu.RUnlock
		}
		k.mu.RUnlock()
		fi, err := s.root.Stat(dir)
		if err != nil || !fi.IsDir() || !s.keepFormDir(dir, fi) {
			return nil, nil
		}
	}
	return nil, nil
}

// keepFormDir opens the folder dir (which fi describes) to keep, unless the kept one is it. It
// reports false when it keeps none.
func (s *Store) keepFormDir(dir string, fi fs.FileInfo) bool {
	k := &s.formDirs
	k.mu.Lock()
	defer k.mu.Unlock()
	if d := k.m[dir]; d != nil && os.SameFile(d.id, fi) {
		d.checked.Store(s.now().UnixNano())
		return true
	}
	if k.m == nil {
		k.m = make(map[string]*keptDir)
	}
	if k.m[dir] == nil && len(k.m) >= maxKeptFormDirs {
		return false
	}
	f, err := s.root.Open(dir)
	if err != nil {
		return false
	}
	id, err := f.Stat()
	if err != nil || !id.IsDir() {
		f.Close()
		return false
	}
	if old := k.m[dir]; old != nil {
		old.dir.Close() // no writer holds it: they hold the read lock while they use it
	}
	d := &keptDir{dir: f, id: id}
	d.checked.Store(s.now().UnixNano())
	k.m[dir] = d
	return true
}

// closeFormDirs releases the kept form folders (Close).
func (s *Store) closeFormDirs() {
	k := &s.formDirs
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, d := range k.m {
		d.dir.Close()
	}
	k.m = nil
}

// keptDir is an open folder and what it was when opened.
type keptDir struct {
	dir     *os.File
	id      fs.FileInfo
	checked atomic.Int64 // when id was last compared with the folder at its path (Unix ns)
}

// writeViaTemp writes data to a temp file in root, then links it as name (failing if name
// exists) and removes the temp name.
func writeViaTemp(root *os.Root, name string, data []byte, sync bool) (err error) {
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := "." + name + atomicfile.TempMarker + fmt.Sprintf("%x", rnd)
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("create temp file for %s: %w", name, err)
	}
	defer func() {
		_ = root.Remove(tmp)
	}()
	_, err = f.Write(data)
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := root.Link(tmp, name); err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	return nil
}

// formatSubmission writes the YAML of a submission file.
func formatSubmission(sub *content.Submission) ([]byte, error) {
	m := content.NewMap(4)
	m.Set("id", sub.ID)
	m.Set("form", sub.Form)
	m.Set("submitted_at", sub.SubmittedAt)
	m.Set("data", sub.Data)
	return frontmatter.MarshalYAML(m)
}

// ParseSubmission reads a submission file. name (the file name) supplies the id when the file
// has none; form is the folder it was found in.
func ParseSubmission(form, name string, raw []byte) (*content.Submission, error) {
	m, err := frontmatter.ParseYAMLMap(raw, 1)
	if err != nil {
		return nil, err
	}
	sub := &content.Submission{ID: str(m, "id"), Form: strOr(m, "form", form), SubmittedAt: strOr(m, "submitted_at", str(m, "submittedAt"))}
	if sub.ID == "" {
		sub.ID = idFromFileName(name)
	}
	switch d := m.Value("data").(type) {
	case *content.Map:
		sub.Data = d
	case nil:
		sub.Data = content.NewMap(0)
	default:
		return nil, fmt.Errorf("data must be a mapping of field handle to value")
	}
	return sub, nil
}

// idFromFileName returns the UUID at the end of a submission file name, or the name without
// its extension.
func idFromFileName(name string) string {
	base := strings.TrimSuffix(name, ".yaml")
	if len(base) >= 36 {
		if _, id, ok := parseSubmissionID(base[len(base)-36:]); ok {
			return id
		}
	}
	return base
}

// submissionNames lists the submission file names of a form in file-name (chronological) order.
// A form without submissions has none. Only names are held, never the submissions.
func (s *Store) submissionNames(op, form string) ([]string, error) {
	dir := s.submissionDir(form)
	f, err := s.root.Open(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, content.Internalf(op, dir, err)
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, content.Internalf(op, dir, err)
	}
	names = slices.DeleteFunc(names, func(n string) bool { return !isSubmissionFile(n) })
	slices.Sort(names)
	return names, nil
}

// readSubmission reads one submission file; a file that no longer exists is a NotFound error,
// one that does not parse an Invalid error naming the file.
func (s *Store) readSubmission(op, form, name string) (*content.Submission, error) {
	p := path.Join(s.submissionDir(form), name)
	raw, err := s.root.ReadFile(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, content.NotFoundf(op, p, "Submission not found")
		}
		return nil, content.Internalf(op, p, err)
	}
	sub, err := ParseSubmission(form, name, raw)
	if err != nil {
		s.problem(p, err)
		return nil, &content.Error{Kind: content.Invalid, Op: op, Path: p, Message: "Submission file does not load", Err: err}
	}
	return sub, nil
}

// Submissions returns one page (1-based, perPage items) of a form's submissions in the given
// order (SortNewest or SortOldest; the file names are chronological) and the total count. Only
// the submissions of the page are read; files that no longer parse are skipped and logged. A
// form without submissions has none; an invalid form handle is a NotFound error.
func (s *Store) Submissions(form string, page, perPage int, sort string) ([]*content.Submission, int, error) {
	const op = "fsstore.Submissions"
	if !content.ValidHandle(form) {
		return nil, 0, content.NotFoundf(op, form, "Form %q not found", form)
	}
	if page < 1 || perPage < 1 {
		return nil, 0, content.Invalidf(op, "page and perPage must be 1 or more")
	}
	names, err := s.submissionNames(op, form)
	if err != nil {
		return nil, 0, err
	}
	total := len(names)
	if sort != SortOldest {
		slices.Reverse(names)
	}
	out := []*content.Submission{}
	start := (page - 1) * perPage
	if start/perPage != page-1 || start >= total { // overflow, or past the end
		return out, total, nil
	}
	end := min(start+perPage, total)
	for _, n := range names[start:end] {
		sub, err := s.readSubmission(op, form, n)
		switch {
		case err == nil:
			out = append(out, sub)
		case content.KindOf(err) == content.NotFound, content.KindOf(err) == content.Invalid:
			// Deleted since the listing, or broken (logged): leave it out.
		default:
			return nil, 0, err
		}
	}
	return out, total, nil
}

// submissionFile finds the file name of a submission by id, or returns a NotFound error. An id
// that is not a UUID is simply not found.
func (s *Store) submissionFile(op, form, id string) (string, error) {
	notFound := content.NotFoundf(op, form+"/"+id, "Submission %q not found", id)
	if !content.ValidHandle(form) {
		return "", notFound
	}
	u, id, ok := parseSubmissionID(id)
	if !ok {
		return "", notFound
	}
	if u.Version() == 7 {
		// The id says when it was made, and so its file name: no listing needed.
		ms := int64(binary.BigEndian.Uint64(u[:8]) >> 16)
		name := submissionFileName(time.UnixMilli(ms), id)
		if _, err := s.root.Stat(path.Join(s.submissionDir(form), name)); err == nil {
			return name, nil
		}
	}
	names, err := s.submissionNames(op, form)
	if err != nil {
		return "", err
	}
	suffix := "-" + id + ".yaml"
	for _, n := range names {
		if strings.HasSuffix(strings.ToLower(n), suffix) {
			return n, nil
		}
	}
	return "", notFound
}

// Submission returns one submission of a form by id, or a NotFound error.
func (s *Store) Submission(form, id string) (*content.Submission, error) {
	const op = "fsstore.Submission"
	name, err := s.submissionFile(op, form, id)
	if err != nil {
		return nil, err
	}
	sub, err := s.readSubmission(op, form, name)
	if content.KindOf(err) == content.NotFound {
		return nil, content.NotFoundf(op, form+"/"+id, "Submission %q not found", id)
	}
	if err != nil {
		return nil, content.Internalf(op, form+"/"+id, err)
	}
	return sub, nil
}

// DeleteSubmission removes a submission's file durably, or returns a NotFound error.
func (s *Store) DeleteSubmission(form, id string) error {
	const op = "fsstore.DeleteSubmission"
	if err := s.writable(op); err != nil {
		return err
	}
	name, err := s.submissionFile(op, form, id)
	if err != nil {
		return err
	}
	p := path.Join(s.submissionDir(form), name)
	if j := s.journal; j != nil {
		// Journaled lately: a delete record keeps replay after a crash from writing it again.
		if err := j.remove(form, name); err != nil && !errors.Is(err, errJournalOff) {
			return content.Internalf(op, p, err)
		}
	}
	if err := s.removeFile(p); err != nil {
		if content.IsNotFound(err) {
			return content.NotFoundf(op, form+"/"+id, "Submission %q not found", id)
		}
		return err
	}
	s.changed("Deleted submission "+form+"/"+id, p)
	return nil
}

// EachSubmission yields a form's submissions oldest first (file-name order), reading one file at
// a time, so that exporting 100,000 submissions holds one of them in memory, not all. Files
// deleted meanwhile and files that do not parse (logged) are skipped; any other failure is
// yielded as an error, after which the sequence stops.
func (s *Store) EachSubmission(form string) iter.Seq2[*content.Submission, error] {
	const op = "fsstore.EachSubmission"
	return func(yield func(*content.Submission, error) bool) {
		if !content.ValidHandle(form) {
			yield(nil, content.NotFoundf(op, form, "Form %q not found", form))
			return
		}
		names, err := s.submissionNames(op, form)
		if err != nil {
			yield(nil, err)
			return
		}
		for _, n := range names {
			sub, err := s.readSubmission(op, form, n)
			switch k := content.KindOf(err); {
			case err == nil:
				if !yield(sub, nil) {
					return
				}
			case k == content.NotFound, k == content.Invalid:
			default:
				yield(nil, err)
				return
			}
		}
	}
}

// SubmissionCount returns the number of stored submissions of a form without reading them.
func (s *Store) SubmissionCount(form string) (int, error) {
	const op = "fsstore.SubmissionCount"
	if !content.ValidHandle(form) {
		return 0, content.NotFoundf(op, form, "Form %q not found", form)
	}
	names, err := s.submissionNames(op, form)
	return len(names), err
}
