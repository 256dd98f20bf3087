package taxonomies

import (
	"fmt"
	"net/http"
	"strings"
	"unicode"

	"cms/content"
	"cms/content/validate"
	"cms/handlers/web"
)

// decode reads a POST or PUT body into a term of taxonomy t and validates it. pathSlug is the
// slug of a PUT ("" for POST).
func (a *api) decode(w http.ResponseWriter, r *http.Request, op string, t *content.Taxonomy, pathSlug string) (*content.Term, error) {
	body := content.NewMap(4)
	if err := web.DecodeJSON(w, r, a.BodyLimit, body); err != nil {
		return nil, err
	}
	term, fe := termFromBody(t.Handle, body)
	switch {
	case pathSlug == "":
		if term.Slug == "" {
			term.Slug = Slugify(term.Title)
			if term.Slug == "" {
				fe.Add("slug", "This field is required (no slug could be made from the title)")
			}
		}
	case term.Slug == "":
		term.Slug = pathSlug
	case term.Slug != pathSlug:
		fe.Add("slug", "A term cannot be renamed; create a new term and delete this one")
	}
	if term.Slug != "" && !content.ValidHandle(term.Slug) {
		fe.Add("slug", "Use letters, digits, '-' and '_', starting with a letter or digit")
	}
	if err := fe.Err(op, "Term data is invalid"); err != nil {
		return nil, err
	}
	if err := a.validate(r, op, t, term); err != nil {
		return nil, err
	}
	if term.Title == "" {
		term.Title = term.Slug
	}
	return term, nil
}

// termFromBody splits a body into the term's parts; keys other than slug, title, description,
// data and taxonomy become data.
func termFromBody(tax string, body *content.Map) (*content.Term, content.FieldErrors) {
	fe := content.FieldErrors{}
	term := &content.Term{Taxonomy: tax, Data: content.NewMap(body.Len())}
	str := func(k string) string {
		switch v := body.Value(k).(type) {
		case nil:
		case string:
			if strings.ContainsFunc(v, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }) {
				fe.Add(k, "Must not contain control characters")
			}
			return v
		default:
			fe.Add(k, "Must be a string")
		}
		return ""
	}
	term.Slug = str("slug")
	term.Title = strings.TrimSpace(str("title"))
	term.Description = str("description")
	if v, ok := body.Get("taxonomy"); ok && v != nil && v != tax {
		fe.Add("taxonomy", fmt.Sprintf("Must be %q, the taxonomy of the request path", tax))
	}
	addData := func(k string, v any) {
		if !content.ValidHandle(k) {
			fe.Add(k, "Invalid field name: use letters, digits, '-' and '_', starting with a letter or digit")
			return
		}
		term.Data.Set(k, v)
	}
	switch d := body.Value("data").(type) {
	case nil:
	case *content.Map:
		for _, k := range d.Keys() {
			if k == "title" || k == "description" || k == "slug" {
				fe.Add("data."+k, "Belongs at the top level of the term, not in data")
				continue
			}
			addData(k, d.Value(k))
		}
	default:
		fe.Add("data", "Must be an object")
	}
	for _, k := range body.Keys() {
		switch k {
		case "slug", "title", "description", "data", "taxonomy":
		default:
			addData(k, body.Value(k))
		}
	}
	return term, fe
}

// validate checks a term against its taxonomy's blueprint, as the file would hold it.
func (a *api) validate(r *http.Request, op string, t *content.Taxonomy, term *content.Term) error {
	bpHandle := t.Blueprint
	if bpHandle == "" {
		bpHandle = t.Handle
	}
	values := content.TermFile(term)
	if term.Title == "" {
		values.Delete("title") // so that a required title is reported as missing
	}
	fe, bp, err := validate.AgainstBlueprint(r.Context(), a.Store, content.BlueprintTaxonomies, bpHandle, values,
		validate.Options{Hooks: a.Hooks, Form: t.Handle, Log: a.Log})
	if err != nil {
		return err
	}
	return validate.BlueprintError(op, "Term data", bp, fe)
}

// Slugify makes a slug from a title: lower-case ASCII letters and digits, accented Latin letters
// folded to their base letter, anything else turned into single dashes, at most
// content.MaxHandleLen bytes. It returns "" when nothing usable is left.
func Slugify(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if f, ok := fold[r]; ok {
			b.WriteString(f)
			dash = false
			continue
		}
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
			continue
		}
		if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.TrimRight(b.String(), "-")
	if len(s) > content.MaxHandleLen {
		s = strings.TrimRight(s[:content.MaxHandleLen], "-")
	}
	return s
}

// fold maps common accented Latin letters to ASCII.
var fold = func() map[rune]string {
	m := map[rune]string{'ß': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o", 'đ': "d", 'ł': "l", 'þ': "th"}
	for base, letters := range map[string]string{
		"a": "àáâãäåāăą", "c": "çćĉċč", "e": "èéêëēĕėęě", "i": "ìíîïĩīĭįı", "n": "ñńņňŉ",
		"o": "òóôõöōŏő", "u": "ùúûüũūŭůűų", "y": "ýÿŷ", "s": "śŝşš", "z": "źżž", "g": "ĝğġģ",
		"r": "ŕŗř", "t": "ţťŧ", "l": "ĺļľŀ", "d": "ď", "h": "ĥħ", "j": "ĵ", "k": "ķ", "w": "ŵ",
	} {
		for _, r := range letters {
			m[r] = base
		}
	}
	return m
}()
