package fsstore

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"cms/content"
	"cms/content/frontmatter"
)

// definitions is an immutable snapshot of everything under resources/. It is rebuilt as a whole
// when any file there changes: the folder is small, and a consistent snapshot is simpler than
// per-file invalidation.
type definitions struct {
	gen         uint64
	epoch       uint64 // s.defsEpoch when loading began
	collections map[string]*content.Collection
	blueprints  map[string]map[string]*content.Blueprint // kind -> handle
	fieldsets   map[string]*content.Fieldset
	roles       map[string]*content.Role
	globals     map[string]*content.GlobalDef
	navigations map[string]*content.NavigationDef
	forms       map[string]*content.FormDef
	taxonomies  map[string]*content.Taxonomy
	seo         seoDocs
}

func (s *Store) definitions() *definitions {
	s.ix.Poll()
	// A snapshot is current while no invalidation happened since its load began: comparing one
	// counter cannot pair a stale snapshot with a cleared flag, as two separate reads could.
	if d := s.defs.Load(); d != nil && d.epoch == s.defsEpoch.Load() {
		return d
	}
	s.defsMu.Lock()
	defer s.defsMu.Unlock()
	epoch := s.defsEpoch.Load()
	if d := s.defs.Load(); d != nil && d.epoch == epoch {
		return d
	}
	d := s.loadDefinitions()
	d.epoch = epoch
	d.gen = s.bump()
	s.defs.Store(d)
	return d
}

// invalidateDefinitions makes the next read reload resources/ and tells other processes (through
// the generation file) to do the same.
func (s *Store) invalidateDefinitions() {
	s.defsEpoch.Add(1)
	s.ix.PublishDefs()
	s.emit(Change{Kind: ChangeDefinitions})
}

// yamlFiles lists *.yaml / *.yml files of a resources folder as handle -> relative path.
func (s *Store) yamlFiles(dir string) map[string]string {
	ents, err := s.readDir(dir)
	if err != nil {
		s.problem(dir, err)
		return nil
	}
	out := make(map[string]string, len(ents))
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") {
			continue
		}
		ext := path.Ext(name)
		if ext != ".yaml" && ext != ".yml" {
			continue
		}
		h := strings.TrimSuffix(name, ext)
		if !content.ValidHandle(h) {
			s.problem(path.Join(dir, name), fmt.Errorf("file name %q is not a valid handle", h))
			continue
		}
		if _, dup := out[h]; dup {
			continue // .yaml wins over .yml (sorted: .yaml < .yml)
		}
		out[h] = path.Join(dir, name)
	}
	return out
}

// readYAMLMap reads a YAML file that must hold a mapping. Problems are logged once.
func (s *Store) readYAMLMap(p string) (*content.Map, bool) {
	b, err := s.root.ReadFile(p)
	if err != nil {
		s.problem(p, err)
		return nil, false
	}
	m, err := frontmatter.ParseYAMLMap(b, 1)
	if err != nil {
		s.problem(p, err)
		return nil, false
	}
	s.resolved(p)
	return m, true
}

func (s *Store) loadDefinitions() *definitions {
	d := &definitions{
		collections: map[string]*content.Collection{},
		blueprints:  map[string]map[string]*content.Blueprint{},
		fieldsets:   map[string]*content.Fieldset{},
		roles:       map[string]*content.Role{},
		globals:     map[string]*content.GlobalDef{},
		navigations: map[string]*content.NavigationDef{},
		forms:       map[string]*content.FormDef{},
		taxonomies:  map[string]*content.Taxonomy{},
	}
	rawFieldsets := map[string]*content.Map{}
	for h, p := range s.yamlFiles(s.resourcePath("fieldsets")) {
		if m, ok := s.readYAMLMap(p); ok {
			rawFieldsets[h] = m
		}
	}
	res := &importResolver{raw: rawFieldsets, done: map[string][]content.Field{}}
	for h, m := range rawFieldsets {
		p := s.resourcePath("fieldsets", h+".yaml")
		fields, err := res.resolve(h, nil)
		if err != nil {
			s.problem(p, err)
			continue
		}
		d.fieldsets[h] = &content.Fieldset{Handle: h, Display: str(m, "display"), IsBlock: boolean(m, "is_block"), Fields: fields}
	}
	for _, kind := range []string{content.BlueprintCollections, content.BlueprintGlobals, content.BlueprintForms, content.BlueprintNavigations, content.BlueprintTaxonomies} {
		d.blueprints[kind] = map[string]*content.Blueprint{}
		dir := s.resourcePath("blueprints", kind)
		for h, p := range s.yamlFiles(dir) {
			m, ok := s.readYAMLMap(p)
			if !ok {
				continue
			}
			bp, err := parseBlueprint(kind, h, m, res)
			if err != nil {
				s.problem(p, err)
				continue
			}
			d.blueprints[kind][h] = bp
		}
	}
	for h, p := range s.yamlFiles(s.resourcePath("collections")) {
		if m, ok := s.readYAMLMap(p); ok {
			c := parseCollection(h, m)
			if err := checkCollection(c); err != nil {
				s.problem(p, err)
				continue
			}
			d.collections[h] = c
		}
	}
	for h, p := range s.yamlFiles(s.resourcePath("roles")) {
		if m, ok := s.readYAMLMap(p); ok {
			r, err := parseRole(h, m)
			if err != nil {
				s.problem(p, err)
				continue
			}
			d.roles[h] = r
		}
	}
	for h, p := range s.yamlFiles(s.resourcePath("globals")) {
		if m, ok := s.readYAMLMap(p); ok {
			d.globals[h] = &content.GlobalDef{Handle: h, Title: strOr(m, "title", titleCase(h)), Blueprint: strOr(m, "blueprint", h), Public: boolean(m, "public")}
		}
	}
	for h, p := range s.yamlFiles(s.resourcePath("navigations")) {
		if m, ok := s.readYAMLMap(p); ok {
			n := &content.NavigationDef{Handle: h, Title: strOr(m, "title", titleCase(h)), Blueprint: str(m, "blueprint"), Collections: strs(m, "collections"), Public: boolean(m, "public")}
			if v, ok := m.Get("max_depth"); ok && v != nil {
				md, ok := v.(int64)
				if !ok || md < 0 {
					s.problem(p, fmt.Errorf("max_depth must be a non-negative integer"))
					continue
				}
				i := int(md)
				n.MaxDepth = &i
			}
			d.navigations[h] = n
		}
	}
	for h, p := range s.yamlFiles(s.resourcePath("forms")) {
		if m, ok := s.readYAMLMap(p); ok {
			f := &content.FormDef{Handle: h, Title: strOr(m, "title", titleCase(h)), Blueprint: strOr(m, "blueprint", h), Honeypot: boolean(m, "honeypot"), StoreSubmissions: true, Redirect: str(m, "redirect")}
			if v, ok := m.Get("store_submissions"); ok {
				b, isBool := v.(bool)
				f.StoreSubmissions = !isBool || b
			}
			d.forms[h] = f
		}
	}
	for h, p := range s.yamlFiles(s.resourcePath("taxonomies")) {
		if m, ok := s.readYAMLMap(p); ok {
			d.taxonomies[h] = &content.Taxonomy{Handle: h, Title: strOr(m, "title", titleCase(h)), Blueprint: str(m, "blueprint"), Route: str(m, "route"), Public: boolean(m, "public")}
		}
	}
	d.seo = s.loadSEODocs()
	return d
}

func checkCollection(c *content.Collection) error {
	var problems []string
	if c.DefaultStatus != content.StatusDraft && c.DefaultStatus != content.StatusPublished {
		problems = append(problems, fmt.Sprintf("defaultStatus must be published or draft, not %q", c.DefaultStatus))
	}
	if c.SortDirection != "" && c.SortDirection != "asc" && c.SortDirection != "desc" {
		problems = append(problems, fmt.Sprintf("sortDirection must be asc or desc, not %q", c.SortDirection))
	}
	if c.Route != "" && !strings.HasPrefix(c.Route, "/") {
		problems = append(problems, "route must start with /")
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return nil
}

func parseCollection(h string, m *content.Map) *content.Collection {
	c := &content.Collection{
		Handle:        h,
		Title:         strOr(m, "title", titleCase(h)),
		Blueprint:     strOr(m, "blueprint", h),
		Route:         str(m, "route"),
		Sortable:      boolean(m, "sortable"),
		Dated:         boolean(m, "dated"),
		DefaultStatus: strOr(m, "defaultStatus", content.StatusDraft),
		Icon:          str(m, "icon"),
		SortDirection: str(m, "sortDirection"),
		Taxonomies:    strs(m, "taxonomies"),
		Template:      str(m, "template"),
		Layout:        str(m, "layout"),
		Public:        boolean(m, "public"),
		Sites:         strs(m, "sites"),
	}
	if c.Taxonomies == nil {
		c.Taxonomies = []string{}
	}
	return c
}

func parseRole(h string, m *content.Map) (*content.Role, error) {
	r := &content.Role{Handle: h, Display: strOr(m, "display", titleCase(h))}
	list, _ := m.Value("permissions").([]any)
	for i, x := range list {
		pm, ok := x.(*content.Map)
		if !ok {
			return nil, fmt.Errorf("permissions[%d] must be a mapping", i)
		}
		p := content.Permission{Resource: str(pm, "resource"), Actions: strs(pm, "actions"), Scope: str(pm, "scope")}
		if p.Resource == "" {
			return nil, fmt.Errorf("permissions[%d].resource is missing", i)
		}
		r.Permissions = append(r.Permissions, p)
	}
	return r, nil
}

// parseBlueprint reads `tabs: {key: {display, fields: [...], sections: {...}}}`.
func parseBlueprint(kind, h string, m *content.Map, res *importResolver) (*content.Blueprint, error) {
	bp := &content.Blueprint{Kind: kind, Handle: h}
	tabsV, ok := m.Get("tabs")
	if !ok {
		// A bare `fields:` list is accepted as a single tab.
		if _, has := m.Get("fields"); has {
			fields, err := res.fields(m.Value("fields"), "fields", nil)
			if err != nil {
				return nil, err
			}
			bp.Tabs = []content.Tab{{Handle: "main", Fields: fields}}
			return bp, nil
		}
		return nil, fmt.Errorf("blueprint has no tabs")
	}
	tabs, ok := tabsV.(*content.Map)
	if !ok && tabsV != nil {
		return nil, fmt.Errorf("tabs must be a mapping of tab name to tab")
	}
	for _, tk := range tabs.Keys() {
		t := content.Tab{Handle: tk}
		tm, _ := tabs.Value(tk).(*content.Map)
		t.Display = strOr(tm, "display", str(tm, "label"))
		fields, err := res.fields(tm.Value("fields"), "tabs."+tk+".fields", nil)
		if err != nil {
			return nil, err
		}
		t.Fields = fields
		if sm, ok := tm.Value("sections").(*content.Map); ok {
			for _, sk := range sm.Keys() {
				sec, _ := sm.Value(sk).(*content.Map)
				sf, err := res.fields(sec.Value("fields"), "tabs."+tk+".sections."+sk+".fields", nil)
				if err != nil {
					return nil, err
				}
				t.Sections = append(t.Sections, content.Section{Handle: sk, Display: str(sec, "display"), Fields: sf})
			}
		}
		bp.Tabs = append(bp.Tabs, t)
	}
	return bp, nil
}

// importResolver splices fieldset imports into field lists, detecting cycles.
type importResolver struct {
	raw  map[string]*content.Map
	done map[string][]content.Field
}

func (r *importResolver) resolve(h string, chain []string) ([]content.Field, error) {
	for _, c := range chain {
		if c == h {
			return nil, fmt.Errorf("circular fieldset import: %s -> %s", strings.Join(chain, " -> "), h)
		}
	}
	if f, ok := r.done[h]; ok {
		return f, nil
	}
	m, ok := r.raw[h]
	if !ok {
		return nil, fmt.Errorf("fieldset %q not found", h)
	}
	fields, err := r.fields(m.Value("fields"), "fieldsets."+h+".fields", append(chain, h))
	if err != nil {
		return nil, err
	}
	r.done[h] = fields
	return fields, nil
}

func (r *importResolver) fields(v any, at string, chain []string) ([]content.Field, error) {
	if v == nil {
		return []content.Field{}, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s must be a list", at)
	}
	out := make([]content.Field, 0, len(list))
	for i, x := range list {
		em, ok := x.(*content.Map)
		if !ok {
			return nil, fmt.Errorf("%s[%d] must be a mapping", at, i)
		}
		if imp, ok := em.String("import"); ok {
			fs, err := r.resolve(imp, chain)
			if err != nil {
				return nil, fmt.Errorf("%s[%d]: %w", at, i, err)
			}
			prefix := str(em, "prefix")
			for _, f := range fs {
				f.Handle = prefix + f.Handle
				out = append(out, f)
			}
			continue
		}
		f := content.Field{Handle: str(em, "handle")}
		fm, _ := em.Value("field").(*content.Map)
		if fm == nil {
			return nil, fmt.Errorf("%s[%d] (%s) has no field definition", at, i, f.Handle)
		}
		f.Type = str(fm, "type")
		f.Display = str(fm, "display")
		f.Instructions = str(fm, "instructions")
		f.Required = boolean(fm, "required")
		switch rv := fm.Value("validate").(type) {
		case string:
			f.Validate = strings.Split(rv, "|")
		case []any:
			for _, r := range rv {
				if s, ok := r.(string); ok {
					f.Validate = append(f.Validate, s)
				}
			}
		}
		f.Default = fm.Value("default")
		if o, ok := fm.Value("options").(*content.Map); ok {
			f.Options = o
		}
		if vm, ok := fm.Value("visibility").(*content.Map); ok {
			f.Visibility = &content.Visibility{Field: str(vm, "field"), Operator: strOr(vm, "operator", "equals"), Value: vm.Value("value")}
		}
		out = append(out, f)
	}
	return out, nil
}

func str(m *content.Map, k string) string {
	switch v := m.Value(k).(type) {
	case string:
		return v
	case int64, float64, bool:
		return fmt.Sprint(v)
	}
	return ""
}

func strOr(m *content.Map, k, def string) string {
	if s := str(m, k); s != "" {
		return s
	}
	return def
}

func boolean(m *content.Map, k string) bool {
	b, _ := m.Value(k).(bool)
	return b
}

func strs(m *content.Map, k string) []string {
	switch v := m.Value(k).(type) {
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	case string:
		return []string{v}
	}
	return nil
}

func titleCase(h string) string {
	if h == "" {
		return h
	}
	return strings.ToUpper(h[:1]) + h[1:]
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Collections lists collection definitions sorted by handle.
func (s *Store) Collections() []*content.Collection {
	d := s.definitions()
	out := make([]*content.Collection, 0, len(d.collections))
	for _, k := range sortedKeys(d.collections) {
		out = append(out, d.collections[k])
	}
	return out
}

// Collection returns one collection definition, or a NotFound error.
func (s *Store) Collection(h string) (*content.Collection, error) {
	if c, ok := s.definitions().collections[h]; ok && content.ValidHandle(h) {
		return c, nil
	}
	return nil, content.NotFoundf("fsstore.Collection", h, "Collection %q not found", h)
}

// Blueprint returns a blueprint of a kind (collections, globals, forms, navigations, taxonomies)
// with fieldset imports resolved, or a NotFound error.
func (s *Store) Blueprint(kind, h string) (*content.Blueprint, error) {
	if bp, ok := s.definitions().blueprints[kind][h]; ok {
		return bp, nil
	}
	return nil, content.NotFoundf("fsstore.Blueprint", h, "Blueprint %q not found", kind+"/"+h)
}

// Blueprints lists the blueprints of a kind sorted by handle.
func (s *Store) Blueprints(kind string) []*content.Blueprint {
	m := s.definitions().blueprints[kind]
	out := make([]*content.Blueprint, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, m[k])
	}
	return out
}

// Fieldsets lists fieldsets sorted by handle.
func (s *Store) Fieldsets() []*content.Fieldset {
	m := s.definitions().fieldsets
	out := make([]*content.Fieldset, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, m[k])
	}
	return out
}

// Role returns a role by handle, or a NotFound error.
func (s *Store) Role(h string) (*content.Role, error) {
	if r, ok := s.definitions().roles[h]; ok {
		return r, nil
	}
	return nil, content.NotFoundf("fsstore.Role", h, "Role %q not found", h)
}

// Roles lists roles sorted by handle.
func (s *Store) Roles() []*content.Role {
	m := s.definitions().roles
	out := make([]*content.Role, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, m[k])
	}
	return out
}

// GlobalDefs lists global definitions sorted by handle.
func (s *Store) GlobalDefs() []*content.GlobalDef {
	m := s.definitions().globals
	out := make([]*content.GlobalDef, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, m[k])
	}
	return out
}

// GlobalDef returns one global definition, or a NotFound error.
func (s *Store) GlobalDef(h string) (*content.GlobalDef, error) {
	if g, ok := s.definitions().globals[h]; ok {
		return g, nil
	}
	return nil, content.NotFoundf("fsstore.GlobalDef", h, "Global %q not found", h)
}

// A navigation exists when it has a definition or a data file (spec: the definition is optional,
// and a missing one means no constraints). One with only a data file has an implicit definition:
// the title from its handle and no constraints. REST and GraphQL both see navigations this way.

// NavigationDefs lists every navigation's definition, explicit or implicit, sorted by handle.
func (s *Store) NavigationDefs() []*content.NavigationDef {
	m := s.definitions().navigations
	all := make(map[string]*content.NavigationDef, len(m))
	for h, d := range m {
		all[h] = d
	}
	files, _ := s.navigationDataHandles() // an unreadable folder has no trees to list
	for _, h := range files {
		if all[h] == nil {
			all[h] = implicitNavigationDef(h)
		}
	}
	out := make([]*content.NavigationDef, 0, len(all))
	for _, k := range sortedKeys(all) {
		out = append(out, all[k])
	}
	return out
}

// NavigationDef returns a navigation's definition, explicit or implicit, or a NotFound error.
// A data file counts even when it does not parse, so that a PUT can replace it.
func (s *Store) NavigationDef(h string) (*content.NavigationDef, error) {
	if n, ok := s.definitions().navigations[h]; ok {
		return n, nil
	}
	if content.ValidHandle(h) && s.exists(s.navigationPath(h)) {
		return implicitNavigationDef(h), nil
	}
	return nil, content.NotFoundf("fsstore.NavigationDef", h, "Navigation %q not found", h)
}

func implicitNavigationDef(h string) *content.NavigationDef {
	return &content.NavigationDef{Handle: h, Title: titleCase(h)}
}

// FormDefs lists form definitions sorted by handle.
func (s *Store) FormDefs() []*content.FormDef {
	m := s.definitions().forms
	out := make([]*content.FormDef, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, m[k])
	}
	return out
}

// FormDef returns one form definition, or a NotFound error.
func (s *Store) FormDef(h string) (*content.FormDef, error) {
	if f, ok := s.definitions().forms[h]; ok {
		return f, nil
	}
	return nil, content.NotFoundf("fsstore.FormDef", h, "Form %q not found", h)
}

// Taxonomies lists taxonomy definitions sorted by handle.
func (s *Store) Taxonomies() []*content.Taxonomy {
	m := s.definitions().taxonomies
	out := make([]*content.Taxonomy, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, m[k])
	}
	return out
}

// Taxonomy returns one taxonomy definition, or a NotFound error.
func (s *Store) Taxonomy(h string) (*content.Taxonomy, error) {
	if t, ok := s.definitions().taxonomies[h]; ok {
		return t, nil
	}
	return nil, content.NotFoundf("fsstore.Taxonomy", h, "Taxonomy %q not found", h)
}

// DefinitionsGeneration changes whenever anything under resources/ changes (schema caches key on it).
func (s *Store) DefinitionsGeneration() uint64 { return s.definitions().gen }
