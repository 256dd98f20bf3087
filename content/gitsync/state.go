package gitsync

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"cms/content"
	"cms/content/internal/atomicfile"
)

// state is one repository's pending work as persisted under the state folder, in <id>.json
// (<id>.<instance>.json with Options.Instance): written (0600, atomically) before a write through the service returns, and removed
// once everything in it is committed and pushed.
type state struct {
	Repository  string           `json:"repository"` // the repository's root folder
	Paths       []string         `json:"paths"`      // repository-relative, not yet committed
	Message     string           `json:"message"`    // the latest change's description
	Authors     []content.Editor `json:"authors"`    // editors of the queued changes, first first
	PushPending bool             `json:"pushPending"`
	LastError   string           `json:"lastError,omitempty"` // masked
}

// repoID names a repository by the SHA-256 hex of its root folder.
func repoID(root string) string {
	sum := sha256.Sum256([]byte(root))
	return hex.EncodeToString(sum[:])
}

// stateDir is the state folder, opened as a root so that file names cannot escape it.
type stateDir struct {
	root   *os.Root
	suffix string // ".json", or ".<instance>.json"
	noSync bool
}

func openStateDir(dir, instance string, noSync bool) (*stateDir, error) {
	suffix := ".json"
	if instance != "" {
		if !content.ValidHandle(instance) {
			return nil, fmt.Errorf("git sync instance name %q: use letters, digits, '-' and '_'", instance)
		}
		suffix = "." + instance + suffix
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create git sync state folder: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil { // an existing folder keeps nobody else out either
		return nil, fmt.Errorf("git sync state folder: %w", err)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open git sync state folder: %w", err)
	}
	return &stateDir{root: r, suffix: suffix, noSync: noSync}, nil
}

func (d *stateDir) close() error { return d.root.Close() }

// save replaces the state of repository id, or removes it when nothing is pending.
func (d *stateDir) save(id string, st *state) error {
	name := id + d.suffix
	if len(st.Paths) == 0 && !st.PushPending {
		if err := atomicfile.Remove(d.root, name, atomicfile.Options{NoSync: d.noSync}); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	raw, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return atomicfile.Write(d.root, name, raw, atomicfile.Options{Perm: 0o600, NoSync: d.noSync})
}

// load reads every persisted state; files that do not parse are reported and skipped.
func (d *stateDir) load() (map[string]*state, []error) {
	out := map[string]*state{}
	var errs []error
	ents, err := fs.ReadDir(d.root.FS(), ".")
	if err != nil {
		return out, []error{err}
	}
	for _, e := range ents {
		name := e.Name()
		id, ok := strings.CutSuffix(name, d.suffix)
		if !e.Type().IsRegular() || !ok || strings.Contains(id, ".") || atomicfile.IsTemp(name) {
			continue // another instance's, or not a state file
		}
		raw, err := d.root.ReadFile(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var st state
		if err := json.Unmarshal(raw, &st); err != nil || st.Repository == "" || repoID(st.Repository) != id {
			errs = append(errs, fmt.Errorf("git sync state %s: not a state file; ignored", name))
			continue
		}
		out[repoID(st.Repository)] = &st
	}
	return out, errs
}
