package validate

import "cms/content"

// FieldRules is how [Values] checks one field, spelled out for code generators that mirror the
// engine in another language (cms generate's validation schemas). Rules that Values ignores
// (unknown, with a bad parameter, or not applying to the field type) are left out, so a mirror
// needs no rule parsing of its own.
type FieldRules struct {
	Handle   string
	Type     string
	Skip     bool   // never checked: type hidden, or no handle
	Shape    string // how rules measure the value: "text", "number", "list" or "other"
	Required bool   // required: true, or a required rule
	Accepted bool   // an accepted rule
	Rules    []RuleSpec
	// Choices are the values a select or multiselect allows (none: any); ChoicesShown are the
	// ones its message lists.
	Choices, ChoicesShown []string
	Integer               bool // number with options.integer
	// Asset cardinality: Multiple, and MinFiles/MaxFiles (MaxFiles 0 = unlimited).
	AssetMultiple      bool
	MinFiles, MaxFiles int64
}

// RuleSpec is one usable rule of a field, parsed. The *Text fields are the numbers as messages
// write them.
type RuleSpec struct {
	Name           string
	Param          string // as written after the first colon (trimmed for after and before)
	N              float64
	NText          string
	Lo, Hi         float64
	LoText, HiText string
	List           []string // in, not_in
	Pattern        string   // regex (Go RE2 syntax)
	Hook, Arg      string
}

// Describe returns how Values checks f.
func Describe(f content.Field) FieldRules {
	out := FieldRules{Handle: f.Handle, Type: f.Type, Required: f.Required}
	out.Skip = f.Handle == "" || f.Type == "hidden"
	sh, _ := fieldShape(f.Type)
	out.Shape = [...]string{shapeOther: "other", shapeText: "text", shapeNumber: "number", shapeList: "list"}[sh]
	for _, s := range f.Validate {
		r, p := parseRule(s)
		if !usable(p) || !applies(r.name, f.Type) {
			continue
		}
		switch r.name {
		case "required":
			out.Required = true
			continue
		case "accepted":
			out.Accepted = true
			continue
		}
		spec := RuleSpec{Name: r.name, Param: r.param, N: r.n, NText: formatNumber(r.n),
			Lo: r.lo, Hi: r.hi, LoText: formatNumber(r.lo), HiText: formatNumber(r.hi),
			List: r.list, Hook: r.hook, Arg: r.arg}
		if r.re != nil {
			spec.Pattern = r.re.String()
		}
		out.Rules = append(out.Rules, spec)
	}
	switch f.Type {
	case "select", "multiselect":
		c := choicesOf(f)
		out.Choices, out.ChoicesShown = c.order, c.display
	case "number":
		out.Integer, _ = f.Options.Value("integer").(bool)
	case "asset":
		a := assetOf(f)
		out.AssetMultiple, out.MinFiles, out.MaxFiles = a.multiple, a.min, a.max
	}
	return out
}
