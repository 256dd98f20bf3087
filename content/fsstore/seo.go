package fsstore

import (
	"errors"
	"fmt"
	"strings"

	"cms/content"
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
