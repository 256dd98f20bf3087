package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"cms/content"
	"cms/content/internal/atomicfile"
)

// Snapshot limits (notes 14.7).
const (
	MaxSnapshotLimit = 500     // the most seo.reportSnapshotLimit may keep
	MaxSnapshotBytes = 5 << 20 // one site's snapshots file; the oldest go first
)

// Snapshots keeps the reports of each site in Dir/reports/{site}.json, newest first, within
// the retention and count limits. It is safe for concurrent use within a process.
type Snapshots struct {
	Dir           string // seo.operationalStoragePath
	RetentionDays int    // seo.reportRetentionDays
	Limit         int    // seo.reportSnapshotLimit
	Now           func() time.Time
	NoSync        bool // tests

	mu sync.Mutex
}

type snapshotFile struct {
	Version   int       `json:"version"`
	Snapshots []*Report `json:"snapshots"`
}

func (s *Snapshots) file(site string) (string, error) {
	if !content.IsName(site, 64, true, "-") {
		return "", content.Invalidf("report.Snapshots", "invalid site %q", site)
	}
	return filepath.Join(s.Dir, "reports", site+".json"), nil
}

func (s *Snapshots) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// List returns a site's kept reports, newest first, without the expired ones.
func (s *Snapshots) List(site string) ([]*Report, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list, err := s.read(site)
	if err != nil {
		return nil, err
	}
	return s.prune(list), nil
}

func (s *Snapshots) read(site string) ([]*Report, error) {
	p, err := s.file(site)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, content.Internalf("report.Snapshots", p, err)
	}
	var f snapshotFile
	if len(b) > 2*MaxSnapshotBytes {
		return nil, content.Internalf("report.Snapshots", p, fmt.Errorf("%d bytes", len(b)))
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, content.Internalf("report.Snapshots", p, err)
	}
	return f.Snapshots, nil
}

func (s *Snapshots) prune(list []*Report) []*Report {
	days := max(s.RetentionDays, 1)
	cutoff := s.now().Add(-time.Duration(days) * 24 * time.Hour).UTC().Format(time.RFC3339)
	out := list[:0:0]
	limit := min(max(s.Limit, 1), MaxSnapshotLimit)
	for _, r := range list {
		if r != nil && r.CreatedAt >= cutoff && len(out) < limit {
			out = append(out, r)
		}
	}
	return out
}

// Save adds a report as the site's newest snapshot, dropping what the limits no longer allow.
func (s *Snapshots) Save(r *Report) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.file(r.Site)
	if err != nil {
		return err
	}
	list, err := s.read(r.Site)
	if err != nil {
		list = nil // an unreadable file is replaced rather than blocking every future report
	}
	list = s.prune(append([]*Report{r}, list...))
	var b []byte
	for {
		if b, err = json.Marshal(snapshotFile{Version: 1, Snapshots: list}); err != nil {
			return content.Internalf("report.Save", p, err)
		}
		if len(b) <= MaxSnapshotBytes || len(list) == 1 {
			break
		}
		list = list[:len(list)-1]
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return content.Internalf("report.Save", p, err)
	}
	root, err := os.OpenRoot(filepath.Dir(p))
	if err != nil {
		return content.Internalf("report.Save", p, err)
	}
	defer root.Close()
	if err := atomicfile.Write(root, filepath.Base(p), b, atomicfile.Options{Perm: 0o600, NoSync: s.NoSync}); err != nil {
		return content.Internalf("report.Save", p, err)
	}
	return nil
}
