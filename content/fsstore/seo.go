package fsstore

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"cms/content"
	"cms/content/frontmatter"
	"cms/content/internal/atomicfile"
	"cms/content/seo"
)

var _ seo.Docs = (*Store)(nil)

// seoDocs are the SEO layer documents of resources/seo (notes 14.3), read with the other
// definitions, so an edit is seen as soon as resources/ changes. A document that does not load
// or validate is a problem (cms check) and an error for the resolver, which skips that layer.
type seoDocs struct {
	sites    map[string]seoDoc // site handle
	sections map[string]seoDoc // "collection/blog", "taxonomy/tags"
}

type seoDoc struct {
	values *content.Map // the validated `seo:` value; nil when the document has none
	err    error
}

// seoSectionKinds are the folders of resources/seo/sections.
var seoSectionKinds = []string{"collection", "taxonomy"}

func (s *Store) loadSEODocs() seoDocs {
	d := seoDocs{sites: map[string]seoDoc{}, sections: map[string]seoDoc{}}
	for h, p := range s.yamlFiles(s.resourcePath("seo", "sites")) {
		d.sites[h] = s.readSEODoc(p, "site", h, "")
	}
	for _, kind := range seoSectionKinds {
		for h, p := range s.yamlFiles(s.resourcePath("seo", "sections", kind)) {
			d.sections[kind+"/"+h] = s.readSEODoc(p, "section", h, kind)
		}
	}
	if ents, err := s.readDir(s.resourcePath("seo", "sections")); err == nil {
		for _, e := range ents {
			if e.IsDir() && e.Name() != "collection" && e.Name() != "taxonomy" && e.Name()[0] != '.' {
				s.problem(s.resourcePath("seo", "sections", e.Name()), errors.New("SEO sections are in the folders collection and taxonomy only; this folder is ignored"))
			}
		}
	}
	return d
}

// readSEODoc reads one SEO document: {version: 1, kind, site | section + handle, seo}. The
// envelope's names, when written, must agree with the file's place; seo must be valid SeoValues.
func (s *Store) readSEODoc(p, kind, handle, section string) seoDoc {
	m, ok := s.readYAMLMap(p)
	if !ok {
		return seoDoc{err: fmt.Errorf("%s does not load (see cms check)", p)}
	}
	if err := checkSEODoc(m, kind, handle, section); err != nil {
		s.problem(p, err)
		return seoDoc{err: fmt.Errorf("%s: %w", p, err)}
	}
	v := m.Value("seo")
	if v == nil {
		return seoDoc{}
	}
	return seoDoc{values: v.(*content.Map)}
}

func checkSEODoc(m *content.Map, kind, handle, section string) error {
	var errs []error
	want := map[string]string{"kind": kind}
	allowed := []string{"version", "kind", "seo"}
	if kind == "site" {
		want["site"] = handle
		allowed = append(allowed, "site")
	} else {
		want["section"], want["handle"] = section, handle
		allowed = append(allowed, "section", "handle")
	}
	for _, k := range m.Keys() {
		v := m.Value(k)
		switch k {
		case "version":
			if n, ok := v.(int64); !ok || n != 1 {
				errs = append(errs, fmt.Errorf("version must be 1"))
			}
		case "seo":
			if _, err := seo.ParseValues(v); err != nil {
				errs = append(errs, err)
			}
		default:
			w, known := want[k]
			if !known {
				errs = append(errs, fmt.Errorf("unknown key %q (known: %v)", k, allowed))
				continue
			}
			if got, _ := v.(string); got != w {
				errs = append(errs, fmt.Errorf("%s must be %q (the file's place), not %v", k, w, v))
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return errors.New(strings.Join(msgs, "; ")) // one line for cms check
}

// SEOSite returns the validated `seo:` value of resources/seo/sites/{site}.yaml; nil when there
// is none, an error when it does not load or validate.
func (s *Store) SEOSite(site string) (*content.Map, error) {
	d, ok := s.definitions().seo.sites[site]
	if !ok {
		return nil, nil
	}
	return d.values, d.err
}

// SEOSection returns the validated `seo:` value of resources/seo/sections/{kind}/{handle}.yaml,
// kind being collection or taxonomy.
func (s *Store) SEOSection(kind, handle string) (*content.Map, error) {
	d, ok := s.definitions().seo.sections[kind+"/"+handle]
	if !ok {
		return nil, nil
	}
	return d.values, d.err
}

// seoDocLock serialises writers of SEO documents, so a revision check and its write are one step.
const seoDocLock = "\x00seo-docs"

// seoDocPath returns the file of an SEO document: kind "site" (handle = the site) or a section
// kind ("collection", "taxonomy").
func (s *Store) seoDocPath(op, kind, handle string) (string, error) {
	if !content.ValidHandle(handle) {
		return "", content.NotFoundf(op, handle, "SEO document %q not found", handle)
	}
	if kind == "site" {
		return s.yamlFile(s.resourcePath("seo", "sites"), handle), nil
	}
	if !slices.Contains(seoSectionKinds, kind) {
		return "", content.NotFoundf(op, kind, "SEO section kind %q not found (collection or taxonomy)", kind)
	}
	return s.yamlFile(s.resourcePath("seo", "sections", kind), handle), nil
}

// SEODocumentCode is the code of the SEO documents' revision conflicts (notes 14.8).
const SEODocumentCode = "SEO_REVISION_CONFLICT"

// SEODocument reads an SEO document fresh from its file: its `seo:` value (an empty map when
// the file has none) and its revision, the SHA-256 hex of the file's bytes. A missing file is a
// NotFound error; one that does not parse is an Invalid error naming the file's problem.
func (s *Store) SEODocument(kind, handle string) (*content.Map, string, error) {
	const op = "fsstore.SEODocument"
	p, err := s.seoDocPath(op, kind, handle)
	if err != nil {
		return nil, "", err
	}
	raw, err := s.root.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", content.NotFoundf(op, p, "SEO document %s/%s not found", kind, handle)
	}
	if err != nil {
		return nil, "", content.Internalf(op, p, err)
	}
	m, err := frontmatter.ParseYAMLMap(raw, 1)
	if err != nil {
		return nil, hashBytes(raw), content.Invalidf(op, "The SEO document does not parse: %v", err)
	}
	v, _ := m.Value("seo").(*content.Map)
	if v == nil {
		v = content.NewMap(0)
	}
	return v, hashBytes(raw), nil
}

// SaveSEODocument validates values as SeoValues and writes the document
// {version: 1, kind, site | section + handle, seo}. A non-empty wantRevision must be the
// current file's revision (a missing file has none), else a Conflict error. It returns the new
// revision and whether the file is new.
func (s *Store) SaveSEODocument(kind, handle string, values *content.Map, wantRevision string) (string, bool, error) {
	const op = "fsstore.SaveSEODocument"
	if err := s.writable(op); err != nil {
		return "", false, err
	}
	p, err := s.seoDocPath(op, kind, handle)
	if err != nil {
		return "", false, err
	}
	if _, err := seo.ParseValues(values); err != nil {
		return "", false, &content.Error{Kind: content.Invalid, Op: op, Code: "SEO_INVALID_INPUT", Message: "The SEO values are invalid: " + err.Error(),
			Fields: map[string][]string{"seo": {err.Error()}}}
	}
	unlock := s.lock(seoDocLock)
	defer unlock()
	cur := ""
	raw, err := s.root.ReadFile(p)
	switch {
	case err == nil:
		cur = hashBytes(raw)
	case !errors.Is(err, fs.ErrNotExist):
		return "", false, content.Internalf(op, p, err)
	}
	if wantRevision != "" && wantRevision != cur {
		return "", false, &content.Error{Kind: content.Conflict, Op: op, Path: p, Code: SEODocumentCode,
			Message: "The SEO document has been modified since it was loaded; reload it and try again"}
	}
	m := content.NewMap(5)
	m.Set("version", int64(1))
	if kind == "site" {
		m.Set("kind", "site")
		m.Set("site", handle)
	} else {
		m.Set("kind", "section")
		m.Set("section", kind)
		m.Set("handle", handle)
	}
	m.Set("seo", values)
	out, err := frontmatter.MarshalYAML(m)
	if err != nil {
		return "", false, encodeFailed(op, p, err)
	}
	if err := atomicfile.Write(s.root, p, out, atomicfile.Options{NoSync: s.opts.NoSync}); err != nil {
		return "", false, content.Internalf(op, p, err)
	}
	s.invalidateDefinitions()
	return hashBytes(out), cur == "", nil
}

// DeleteSEODocument removes an SEO document; a non-empty wantRevision must match.
func (s *Store) DeleteSEODocument(kind, handle, wantRevision string) error {
	const op = "fsstore.DeleteSEODocument"
	if err := s.writable(op); err != nil {
		return err
	}
	p, err := s.seoDocPath(op, kind, handle)
	if err != nil {
		return err
	}
	unlock := s.lock(seoDocLock)
	defer unlock()
	raw, err := s.root.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return content.NotFoundf(op, p, "SEO document %s/%s not found", kind, handle)
	}
	if err != nil {
		return content.Internalf(op, p, err)
	}
	if wantRevision != "" && wantRevision != hashBytes(raw) {
		return &content.Error{Kind: content.Conflict, Op: op, Path: p, Code: SEODocumentCode,
			Message: "The SEO document has been modified since it was loaded; reload it and try again"}
	}
	if err := atomicfile.Remove(s.root, p, atomicfile.Options{NoSync: s.opts.NoSync}); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return content.Internalf(op, p, err)
	}
	s.invalidateDefinitions()
	return nil
}

// SEODocumentHandles lists the handles of the SEO documents of a kind ("site", "collection",
// "taxonomy"), sorted, whether they validate or not.
func (s *Store) SEODocumentHandles(kind string) []string {
	d := s.definitions().seo
	var out []string
	if kind == "site" {
		for h := range d.sites {
			out = append(out, h)
		}
	} else {
		for k := range d.sections {
			if h, ok := strings.CutPrefix(k, kind+"/"); ok {
				out = append(out, h)
			}
		}
	}
	slices.Sort(out)
	return out
}
