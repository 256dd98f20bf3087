package fsstore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"sort"
	"strings"

	"cms/content"
	"cms/content/frontmatter"
	"cms/content/internal/atomicfile"
)

func hashBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// readDoc reads a YAML mapping file fresh from disk (a hand edit is seen by the next call). A
// file that does not parse is an Internal error naming the file: the client cannot fix it, the
// site owner can.
func (s *Store) readDoc(op, p string) (content.Doc, error) {
	raw, err := s.root.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return content.Doc{Data: content.NewMap(0), Hash: content.EmptyHash}, nil
	}
	if err != nil {
		return content.Doc{}, content.Internalf(op, p, err)
	}
	m, err := frontmatter.ParseYAMLMap(raw, 1)
	if err != nil {
		s.problem(p, err)
		return content.Doc{}, content.Internalf(op, p, err)
	}
	s.resolved(p)
	return content.Doc{Data: m, Hash: hashBytes(raw), Exists: true}, nil
}

// currentHash returns the hash of a file's bytes, EmptyHash when it is missing.
func (s *Store) currentHash(op, p string) (string, error) {
	raw, err := s.root.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return content.EmptyHash, nil
	}
	if err != nil {
		return "", content.Internalf(op, p, err)
	}
	return hashBytes(raw), nil
}

// writeDoc atomically replaces p with data serialised as YAML. The caller holds the path's lock.
// A non-empty wantHash must equal the hash of the current bytes, else the write is refused with a
// Conflict error carrying both hashes; exclusive refuses to replace an existing file.
func (s *Store) writeDoc(op, p string, data *content.Map, wantHash string, exclusive bool) (content.Doc, error) {
	if err := s.writable(op); err != nil {
		return content.Doc{}, err
	}
	if wantHash != "" {
		cur, err := s.currentHash(op, p)
		if err != nil {
			return content.Doc{}, err
		}
		if cur != wantHash {
			return content.Doc{}, &content.Error{Kind: content.Conflict, Op: op, Path: p,
				Message: "The file has been modified since it was loaded; reload it and try again",
				Details: ConflictDetails{SubmittedHash: wantHash, CurrentHash: cur}}
		}
	}
	raw, err := frontmatter.MarshalYAML(data)
	if err != nil {
		return content.Doc{}, encodeFailed(op, p, err)
	}
	if err := atomicfile.Write(s.root, p, raw, atomicfile.Options{Exclusive: exclusive, NoSync: s.opts.NoSync}); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return content.Doc{}, &content.Error{Kind: content.Conflict, Op: op, Path: p, Message: "already exists", Err: err}
		}
		return content.Doc{}, content.Internalf(op, p, err)
	}
	s.noteChange(p)
	return content.Doc{Data: data, Hash: hashBytes(raw), Exists: true}, nil
}

// encodeFailed reports a file that could not be serialised. A document over the limits the
// reader shares with the writer (content.MaxNesting, content.MaxDocumentBytes) keeps its own
// error, which the client can act on; anything else is Internal.
func encodeFailed(op, p string, err error) error {
	if ce, ok := errors.AsType[*content.Error](err); ok && ce.Kind != content.Internal {
		ce.Op, ce.Path = op, p
		return ce
	}
	return content.Internalf(op, p, err)
}

// yamlHandles lists the handles of the *.yaml / *.yml files of a content folder, sorted. Files
// whose name is not a valid handle, dotfiles and temp files are skipped.
func (s *Store) yamlHandles(dir string) ([]string, error) {
	ents, err := s.readDir(dir)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") {
			continue
		}
		h, ok := strings.CutSuffix(name, ".yaml")
		if !ok {
			h, ok = strings.CutSuffix(name, ".yml")
		}
		if ok && content.ValidHandle(h) {
			seen[h] = true
		}
	}
	out := make([]string, 0, len(seen))
	for h := range seen {
		out = append(out, h)
	}
	sort.Strings(out)
	return out, nil
}

// yamlFile returns the path of handle's file in dir: the .yaml file, or an existing .yml file
// written by hand.
func (s *Store) yamlFile(dir, h string) string {
	p := dir + "/" + h + ".yaml"
	if _, err := s.root.Lstat(p); err != nil {
		if alt := dir + "/" + h + ".yml"; s.exists(alt) {
			return alt
		}
	}
	return p
}

func (s *Store) exists(p string) bool {
	_, err := s.root.Lstat(p)
	return err == nil
}

// keepOrder returns next with the keys that cur already has first, in cur's order, followed by
// next's new keys in their order, so a rewritten file has a small diff.
func keepOrder(cur, next *content.Map) *content.Map {
	out := content.NewMap(next.Len())
	for _, k := range cur.Keys() {
		if v, ok := next.Get(k); ok {
			out.Set(k, v)
		}
	}
	for _, k := range next.Keys() {
		if _, ok := out.Get(k); !ok {
			out.Set(k, next.Value(k))
		}
	}
	return out
}
