package fsstore

import (
	"fmt"
	"strings"

	"cms/content"
	"cms/content/frontmatter"
)

// Validation hooks are stored as resources/hooks/{name}.wasm with a metadata file beside it,
// resources/hooks/{name}.meta.yaml. The module is written first and the metadata last, so a hook
// is installed exactly when its metadata exists; readers find the module by the metadata's sha256
// (the WASM host checks the bytes against it).

func (s *Store) hookPath(name, ext string) string { return s.resourcePath("hooks", name+ext) }

const (
	hookModuleExt = ".wasm"
	hookMetaExt   = ".meta.yaml"
)

// Hooks lists the installed hooks sorted by name. Metadata files that do not load are skipped
// and logged.
func (s *Store) Hooks() ([]content.Hook, error) {
	const op = "fsstore.Hooks"
	ents, err := s.readDir(s.resourcePath("hooks"))
	if err != nil {
		return nil, err
	}
	out := []content.Hook{}
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), hookMetaExt)
		if !ok || e.IsDir() || !content.ValidHookName(name) {
			continue
		}
		h, err := s.HookMeta(name)
		if err != nil {
			if content.IsNotFound(err) {
				continue
			}
			if content.KindOf(err) == content.Invalid {
				continue // logged by HookMeta
			}
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		out = append(out, *h)
	}
	return out, nil
}

// HookMeta returns an installed hook's metadata, or a NotFound error when no hook of that name is
// installed. Metadata that does not load is an Invalid error (and logged).
func (s *Store) HookMeta(name string) (*content.Hook, error) {
	const op = "fsstore.HookMeta"
	if !content.ValidHookName(name) {
		return nil, content.NotFoundf(op, name, "Hook %q not found", name)
	}
	p := s.hookPath(name, hookMetaExt)
	raw, err := s.readFile(p)
	if err != nil {
		if content.IsNotFound(err) {
			return nil, content.NotFoundf(op, name, "Hook %q not found", name)
		}
		return nil, err
	}
	m, err := frontmatter.ParseYAMLMap(raw, 1)
	if err == nil {
		h := &content.Hook{Name: name, SHA256: str(m, "sha256"), UploadedBy: str(m, "uploadedBy"), UploadedAt: str(m, "uploadedAt")}
		size, _ := m.Value("size").(int64)
		abi, _ := m.Value("abiVersion").(int64)
		h.Size, h.ABIVersion = size, int(abi)
		if len(h.SHA256) == 64 {
			s.resolved(p)
			return h, nil
		}
		err = fmt.Errorf("sha256 must be 64 hex digits")
	}
	s.problem(p, err)
	return nil, &content.Error{Kind: content.Invalid, Op: op, Path: p, Message: fmt.Sprintf("Metadata of hook %q does not load", name), Err: err}
}

// HookModule returns an installed hook's module bytes, or a NotFound error.
func (s *Store) HookModule(name string) ([]byte, error) {
	const op = "fsstore.HookModule"
	if !content.ValidHookName(name) {
		return nil, content.NotFoundf(op, name, "Hook %q not found", name)
	}
	b, err := s.readFile(s.hookPath(name, hookModuleExt))
	if content.IsNotFound(err) {
		return nil, content.NotFoundf(op, name, "Hook %q not found", name)
	}
	return b, err
}

// PutHook installs (or replaces) a hook: the module first, then its metadata, each written
// atomically, so that readers never see metadata without its module. h.Name must be a valid
// hook name; the caller has checked the module. It reports whether a hook was replaced.
func (s *Store) PutHook(h content.Hook, wasm []byte) (replaced bool, err error) {
	const op = "fsstore.PutHook"
	if err := s.writable(op); err != nil {
		return false, err
	}
	if !content.ValidHookName(h.Name) {
		return false, content.Invalidf(op, "Invalid hook name %q: use 1 to 64 lower-case letters, digits, '_' or '-', starting with a letter or digit", h.Name)
	}
	meta := content.NewMap(5)
	meta.Set("sha256", h.SHA256)
	meta.Set("size", h.Size)
	meta.Set("uploadedBy", h.UploadedBy)
	meta.Set("uploadedAt", h.UploadedAt)
	meta.Set("abiVersion", int64(h.ABIVersion))
	raw, err := frontmatter.MarshalYAML(meta)
	if err != nil {
		return false, content.Internalf(op, h.Name, err)
	}
	mp, wp := s.hookPath(h.Name, hookMetaExt), s.hookPath(h.Name, hookModuleExt)
	unlock := s.lock(mp)
	defer unlock()
	if _, err := s.root.Stat(mp); err == nil {
		replaced = true
	}
	if err := s.writeFile(wp, wasm, 0o644, false); err != nil {
		return false, err
	}
	if err := s.writeFile(mp, raw, 0o644, false); err != nil {
		s.changed("Saved hook "+h.Name, wp)
		return false, err
	}
	s.changed("Saved hook "+h.Name, wp, mp)
	return replaced, nil
}

// DeleteHook uninstalls a hook: its metadata first (from then on it is not installed), then the
// module. An unknown hook is a NotFound error.
func (s *Store) DeleteHook(name string) error {
	const op = "fsstore.DeleteHook"
	if err := s.writable(op); err != nil {
		return err
	}
	if !content.ValidHookName(name) {
		return content.NotFoundf(op, name, "Hook %q not found", name)
	}
	mp := s.hookPath(name, hookMetaExt)
	unlock := s.lock(mp)
	defer unlock()
	if err := s.removeFile(mp); err != nil {
		if content.IsNotFound(err) {
			return content.NotFoundf(op, name, "Hook %q not found", name)
		}
		return err
	}
	wp := s.hookPath(name, hookModuleExt)
	if err := s.removeFile(wp); err != nil && !content.IsNotFound(err) {
		s.changed("Deleted hook "+name, mp)
		return err
	}
	s.changed("Deleted hook "+name, mp, wp)
	return nil
}
