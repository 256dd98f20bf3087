package content

// Entry statuses.
const (
	StatusPublished = "published"
	StatusDraft     = "draft"
)

// Entry is one Markdown file of a collection: frontmatter plus body.
type Entry struct {
	Collection string
	Slug       string
	Title      string
	Status     string
	Author     string
	CreatedAt  string // ISO 8601, as written in the file
	UpdatedAt  string
	Data       *Map   // custom frontmatter fields, in file order
	Content    string // the Markdown body, trimmed
	// Hash is the SHA-256 hex of the raw file text: the CP's contentHash, which a client sends
	// back to update the entry. Set on an entry read whole (Store.Entry) or just written; the
	// index's records (Store.EntryMeta, Store.Entries) leave it empty, as hashing every file
	// was a tenth of a cold start.
	Hash string
	// Version identifies the raw file text (VersionOf), on every entry the store hands out:
	// what caches, ETags and the index compare to tell whether an entry changed.
	Version string
}

// Published reports whether the entry is publicly visible.
func (e *Entry) Published() bool { return e.Status == StatusPublished }

// Field returns a metadata or custom field by name, as the public API and filters see it:
// metadata first (title, slug, status, author, collection, createdAt, updatedAt, content), then Data.
func (e *Entry) Field(name string) (any, bool) {
	switch name {
	case "title":
		return e.Title, true
	case "slug":
		return e.Slug, true
	case "status":
		return e.Status, true
	case "author":
		if e.Author == "" {
			return nil, false
		}
		return e.Author, true
	case "collection":
		return e.Collection, true
	case "createdAt":
		return e.CreatedAt, e.CreatedAt != ""
	case "updatedAt":
		return e.UpdatedAt, e.UpdatedAt != ""
	case "content":
		return e.Content, true
	}
	return e.Data.Get(name)
}

// ReservedEntryKeys are frontmatter keys the content engine manages; they may not appear in Data.
var ReservedEntryKeys = []string{"title", "slug", "status", "author", "createdAt", "updatedAt"}

// IsReservedEntryKey reports whether k is managed by the engine.
func IsReservedEntryKey(k string) bool {
	for _, r := range ReservedEntryKeys {
		if r == k {
			return true
		}
	}
	return false
}

// Collection is a collection definition from resources/collections/{handle}.yaml.
type Collection struct {
	Handle        string   `json:"handle"`
	Title         string   `json:"title"`
	Blueprint     string   `json:"blueprint"`
	Route         string   `json:"route,omitempty"`
	Sortable      bool     `json:"sortable"`
	Dated         bool     `json:"dated"`
	DefaultStatus string   `json:"defaultStatus"`
	Icon          string   `json:"icon,omitempty"`
	SortDirection string   `json:"sortDirection,omitempty"` // "" means the default for the collection kind
	Taxonomies    []string `json:"taxonomies"`
	Template      string   `json:"template,omitempty"`
	Layout        string   `json:"layout,omitempty"`
	// Public opts the definition into the public API's GET {base}/collections (`public: true`).
	Public bool `json:"public,omitempty"`
	// Sites lists the handles of the sites (configuration `sites`) the collection is public on;
	// empty = every site.
	Sites []string `json:"sites,omitempty"`
}

// OnSite reports whether the collection is public on the site with this handle.
func (c *Collection) OnSite(site string) bool {
	if len(c.Sites) == 0 {
		return true
	}
	for _, s := range c.Sites {
		if s == site {
			return true
		}
	}
	return false
}

// Blueprint kinds (folders under resources/blueprints).
const (
	BlueprintCollections = "collections"
	BlueprintGlobals     = "globals"
	BlueprintForms       = "forms"
	BlueprintNavigations = "navigations"
	BlueprintTaxonomies  = "taxonomies"
)

// Blueprint is a field schema: tabs of fields, with fieldset imports already resolved.
type Blueprint struct {
	Kind   string `json:"kind"`
	Handle string `json:"handle"`
	Tabs   []Tab  `json:"tabs"`
}

// Tab groups fields (and optional sections) of a blueprint.
type Tab struct {
	Handle   string    `json:"handle"`
	Display  string    `json:"display,omitempty"`
	Fields   []Field   `json:"fields"`
	Sections []Section `json:"sections,omitempty"`
}

// Section is a named group of fields inside a tab.
type Section struct {
	Handle  string  `json:"handle"`
	Display string  `json:"display,omitempty"`
	Fields  []Field `json:"fields"`
}

// Field is one field of a blueprint or fieldset.
type Field struct {
	Handle       string      `json:"handle"`
	Type         string      `json:"type"`
	Display      string      `json:"display,omitempty"`
	Instructions string      `json:"instructions,omitempty"`
	Required     bool        `json:"required,omitempty"`
	Validate     []string    `json:"validate,omitempty"`
	Default      any         `json:"default,omitempty"`
	Options      *Map        `json:"options,omitempty"`
	Visibility   *Visibility `json:"visibility,omitempty"`
}

// Visibility shows a field only when another field's value matches.
type Visibility struct {
	Field    string `json:"field"`
	Operator string `json:"operator"` // equals, not_equals, contains, empty, not_empty
	Value    any    `json:"value,omitempty"`
}

// Fields returns every field of the blueprint in order: tab fields, then each tab's sections.
func (b *Blueprint) Fields() []Field {
	if b == nil {
		return nil
	}
	var out []Field
	for _, t := range b.Tabs {
		out = append(out, t.Fields...)
		for _, s := range t.Sections {
			out = append(out, s.Fields...)
		}
	}
	return out
}

// Field returns the first field with the given handle, in the order of Fields (without building
// that list: a list query looks up its fields on every request).
func (b *Blueprint) Field(handle string) (Field, bool) {
	if b == nil {
		return Field{}, false
	}
	find := func(fs []Field) (Field, bool) {
		for i := range fs {
			if fs[i].Handle == handle {
				return fs[i], true
			}
		}
		return Field{}, false
	}
	for _, t := range b.Tabs {
		if f, ok := find(t.Fields); ok {
			return f, true
		}
		for _, s := range t.Sections {
			if f, ok := find(s.Fields); ok {
				return f, true
			}
		}
	}
	return Field{}, false
}

// Fieldset is a reusable list of fields from resources/fieldsets/{handle}.yaml.
type Fieldset struct {
	Handle  string  `json:"handle"`
	Display string  `json:"display,omitempty"`
	IsBlock bool    `json:"is_block"`
	Fields  []Field `json:"fields"`
}

// Role grants actions on resources.
type Role struct {
	Handle      string       `json:"handle"`
	Display     string       `json:"display"`
	Permissions []Permission `json:"permissions"`
}

// Permission is one grant of a role. An empty Scope applies to every scope.
type Permission struct {
	Resource string   `json:"resource"`
	Actions  []string `json:"actions"`
	Scope    string   `json:"scope,omitempty"`
}

// Resources and actions a role can grant: the spec's nine, and git (git sync).
var (
	Resources = []string{"collections", "entries", "assets", "users", "globals", "taxonomies", "forms", "navigation", "settings",
		"tokens", "git", "seo", "seo-reports", "seo-redirects", "seo-errors"}
	Actions = []string{"view", "create", "edit", "delete", "publish"}
)

// User is an account from users/{id}.yaml. PasswordHash never leaves the server.
type User struct {
	ID           string
	Email        string
	Name         string
	PasswordHash string
	Roles        []string
	CreatedAt    string
	LastLogin    string
	Theme        string
	Extra        *Map // unknown keys, kept when the file is rewritten
}

// GlobalDef is a global definition from resources/globals/{handle}.yaml.
type GlobalDef struct {
	Handle    string `json:"handle"`
	Title     string `json:"title"`
	Blueprint string `json:"blueprint"`
	Public    bool   `json:"public,omitempty"` // readable anonymously at GET {public.basePath}/globals/{handle}
}

// NavigationDef is a navigation definition from resources/navigations/{handle}.yaml.
type NavigationDef struct {
	Handle      string   `json:"handle"`
	Title       string   `json:"title"`
	Blueprint   string   `json:"blueprint,omitempty"`
	MaxDepth    *int     `json:"max_depth,omitempty"` // nil = unlimited; 0 = flat list
	Collections []string `json:"collections,omitempty"`
	Public      bool     `json:"public,omitempty"` // readable anonymously at GET {public.basePath}/navigation/{handle}
}

// NavItem is one node of a navigation tree.
type NavItem struct {
	Label    string    `json:"label"`
	URL      string    `json:"url,omitempty"`
	Entry    string    `json:"entry,omitempty"` // "<collection>/<slug>"
	External bool      `json:"external,omitempty"`
	Children []NavItem `json:"children,omitempty"`
	Extra    *Map      `json:"-"` // other keys written by hand (e.g. icon), kept on rewrite
}

// FormDef is a form definition from resources/forms/{handle}.yaml.
type FormDef struct {
	Handle           string `json:"handle"`
	Title            string `json:"title"`
	Blueprint        string `json:"blueprint"`
	Honeypot         bool   `json:"honeypot"`
	StoreSubmissions bool   `json:"store_submissions"`
	Redirect         string `json:"redirect,omitempty"`
}

// Submission is one stored form submission.
type Submission struct {
	ID          string `json:"id"`
	Form        string `json:"form"`
	SubmittedAt string `json:"submittedAt"`
	Data        *Map   `json:"data"`
}

// Taxonomy is a taxonomy definition from resources/taxonomies/{handle}.yaml.
type Taxonomy struct {
	Handle    string `json:"handle"`
	Title     string `json:"title"`
	Blueprint string `json:"blueprint,omitempty"`
	Route     string `json:"route,omitempty"`
	Public    bool   `json:"public,omitempty"` // terms readable anonymously at GET {public.basePath}/taxonomies/{handle}
}

// Term is one term of a taxonomy from content/taxonomies/{taxonomy}/{slug}.yaml.
type Term struct {
	Taxonomy    string `json:"taxonomy"`
	Slug        string `json:"slug"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	Data        *Map   `json:"data"`
}
