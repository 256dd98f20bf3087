package validate

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"cms/content"
)

var slugRE = regexp.MustCompile(`^[a-z0-9-]+$`)

// maxListedOptions bounds how many allowed values a message spells out.
const maxListedOptions = 10

// Messages for values of the wrong shape.
const (
	msgRequired   = "This field is required"
	msgString     = "Must be a string"
	msgNumber     = "Must be a number"
	msgWhole      = "Must be a whole number"
	msgBool       = "Must be true or false"
	msgList       = "Must be a list"
	msgItemString = "Each item must be a string"
	msgItemObject = "Each item must be an object"
	msgItemEmpty  = "Must not contain empty items"
	msgRichText   = "Must be text or a rich-text document"
	msgSlug       = "Must contain only lowercase letters, numbers, and hyphens"
	msgSingleFile = "Must be a single file path"
)

// checkShape reports whether v has the Go type a field of type typ stores, and the message when not.
// Values of unknown field types pass: the structural check reports the type.
func checkShape(f content.Field, v any) string {
	switch f.Type {
	case "text", "slug", "markdown", "code", "yaml", "date", "select":
		if _, ok := v.(string); !ok {
			return msgString
		}
	case "tiptap":
		switch v.(type) {
		case string, *content.Map:
		default:
			return msgRichText
		}
	case "number":
		if _, ok := toFloat(v); !ok {
			return msgNumber
		}
	case "toggle":
		if _, ok := v.(bool); !ok {
			return msgBool
		}
	case "multiselect", "entries", "taxonomy":
		return checkStringList(v)
	case "asset":
		if !assetOf(f).multiple {
			if _, ok := v.(string); !ok {
				return msgSingleFile
			}
			return ""
		}
		return checkStringList(v)
	case "replicator", "grid", "blocks":
		items, ok := asList(v)
		if !ok {
			return msgList
		}
		for _, it := range items {
			if _, ok := it.(*content.Map); !ok {
				return msgItemObject
			}
		}
	}
	return ""
}

func checkStringList(v any) string {
	items, ok := asList(v)
	if !ok {
		return msgList
	}
	for _, it := range items {
		if _, ok := it.(string); !ok {
			return msgItemString
		}
	}
	return ""
}

// checkFormat runs the checks a field type makes on a non-blank value of the right shape.
func checkFormat(f content.Field, v any) []string {
	switch f.Type {
	case "slug":
		if !slugRE.MatchString(v.(string)) {
			return []string{msgSlug}
		}
	case "select":
		if c := choicesOf(f); c.present() && !c.allows(v.(string)) {
			return []string{oneOf("Must be one of", c.display)}
		}
	case "multiselect":
		if c := choicesOf(f); c.present() {
			items, _ := asList(v)
			for _, it := range items {
				if !c.allows(it.(string)) {
					return []string{oneOf("Each item must be one of", c.display)}
				}
			}
		}
	case "number":
		if b, _ := f.Options.Value("integer").(bool); b {
			if x, _ := toFloat(v); x != math.Trunc(x) {
				return []string{msgWhole}
			}
		}
	case "entries", "taxonomy":
		// References are not checked for the collection/slug form: Madori data holds bare slugs.
		items, _ := asList(v)
		for _, it := range items {
			if strings.TrimSpace(it.(string)) == "" {
				return []string{msgItemEmpty}
			}
		}
	case "asset":
		a := assetOf(f)
		if !a.multiple {
			return nil
		}
		items, _ := asList(v)
		var msgs []string
		for _, it := range items {
			if strings.TrimSpace(it.(string)) == "" {
				msgs = append(msgs, msgItemEmpty)
				break
			}
		}
		if a.max > 0 && int64(len(items)) > a.max {
			msgs = append(msgs, fmt.Sprintf("Must have at most %d %s", a.max, plural(float64(a.max), "file", "files")))
		}
		if int64(len(items)) < a.min {
			msgs = append(msgs, fmt.Sprintf("Must have at least %d %s", a.min, plural(float64(a.min), "file", "files")))
		}
		return msgs
	}
	return nil
}

// blank reports whether a value of the right shape holds nothing: white space, no visible rich
// text, no items.
func blank(f content.Field, v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		if f.Type == "tiptap" {
			return strings.TrimSpace(richText(x)) == ""
		}
		return strings.TrimSpace(x) == ""
	case *content.Map:
		return f.Type == "tiptap" && strings.TrimSpace(visibleText(x)) == ""
	}
	if items, ok := asList(v); ok {
		return len(items) == 0
	}
	return false
}

// textOf returns the text that text rules measure: the string, or the visible text of rich text.
func textOf(f content.Field, v any) (string, bool) {
	switch x := v.(type) {
	case string:
		if f.Type == "tiptap" {
			return richText(x), true
		}
		return x, true
	case *content.Map:
		if f.Type == "tiptap" {
			return visibleText(x), true
		}
	}
	return "", false
}

// countOf returns the item count that list rules measure; a single asset counts as one.
func countOf(v any) (int, bool) {
	if items, ok := asList(v); ok {
		return len(items), true
	}
	if s, ok := v.(string); ok {
		if strings.TrimSpace(s) == "" {
			return 0, true
		}
		return 1, true
	}
	return 0, false
}

// richText returns the visible text of a tiptap string value: rich text stored as a JSON string
// is read as a document, anything else is legacy Markdown taken as it is.
func richText(s string) string {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "{") {
		return s
	}
	var m content.Map
	if err := m.UnmarshalJSON([]byte(t)); err != nil {
		return s
	}
	if _, ok := m.Get("type"); !ok {
		return s
	}
	return visibleText(&m)
}

// visibleText concatenates the text nodes of a tiptap document ({type:"text", text} nodes found
// through nested "content" lists). It walks with its own stack so depth costs no Go stack.
func visibleText(doc *content.Map) string {
	var b strings.Builder
	stack := []any{doc}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		node, ok := n.(*content.Map)
		if !ok {
			continue
		}
		if typ, _ := node.String("type"); typ == "text" {
			if s, ok := node.String("text"); ok {
				b.WriteString(s)
			}
		}
		children, _ := node.Value("content").([]any)
		for i := len(children) - 1; i >= 0; i-- {
			stack = append(stack, children[i])
		}
	}
	return b.String()
}

// asList returns v as a list; []string is accepted because some decoders produce it.
func asList(v any) ([]any, bool) {
	switch x := v.(type) {
	case []any:
		return x, true
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out, true
	}
	return nil, false
}

// toFloat returns a finite number held in v.
func toFloat(v any) (float64, bool) {
	var f float64
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	case int32:
		return float64(x), true
	case float64:
		f = x
	case float32:
		f = float64(x)
	default:
		return 0, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// scalarString writes a scalar the way JavaScript's String() would, for comparisons with
// blueprint values; lists and objects give false.
func scalarString(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case bool:
		if x {
			return "true", true
		}
		return "false", true
	}
	if f, ok := toFloat(v); ok {
		return formatNumber(f), true
	}
	return "", false
}

// runeLen counts characters, not bytes, so "é" is one.
func runeLen(s string) int { return utf8.RuneCountInString(s) }

func plural(n float64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// oneOf writes "<prefix>: a, b, c", or a generic text when the list is too long to read.
func oneOf(prefix string, items []string) string {
	if len(items) > maxListedOptions {
		return prefix + " the allowed options"
	}
	return prefix + ": " + strings.Join(items, ", ")
}

// choices are the allowed values of a select or multiselect field.
type choices struct {
	allowed map[string]bool // built past choicesIndexed choices; below, order is searched
	order   []string        // allowed, in the order found
	display []string        // what messages list
}

// choicesIndexed: up to this many choices a search beats building a map on every submission.
const choicesIndexed = 16

func (c choices) present() bool { return len(c.order) > 0 }

func (c choices) allows(s string) bool {
	if c.allowed != nil {
		return c.allowed[s]
	}
	return slices.Contains(c.order, s)
}

func (c *choices) add(s string, show bool) {
	if c.allows(s) {
		return
	}
	c.order = append(c.order, s)
	if c.allowed != nil {
		c.allowed[s] = true
	} else if len(c.order) > choicesIndexed {
		c.allowed = make(map[string]bool, 2*len(c.order))
		for _, o := range c.order {
			c.allowed[o] = true
		}
	}
	if show {
		c.display = append(c.display, s)
	}
}

// choicesOf reads a field's options from options.options, else options.choices. Each may be a
// list of scalars or of {value, label} maps, or a map. For a map both keys and values are accepted
// (Madori stores the values, other CMSs the keys); messages list the values when all are strings.
func choicesOf(f content.Field) choices {
	var c choices
	src, ok := f.Options.Get("options")
	if !ok || src == nil {
		src = f.Options.Value("choices")
	}
	switch x := src.(type) {
	case []any:
		for _, it := range x {
			if m, ok := it.(*content.Map); ok {
				it = m.Value("value")
			}
			if s, ok := scalarString(it); ok {
				c.add(s, true)
			}
		}
	case *content.Map:
		allStrings := true
		for _, k := range x.Keys() {
			if _, ok := x.Value(k).(string); !ok {
				allStrings = false
			}
		}
		for _, k := range x.Keys() {
			if s, ok := x.Value(k).(string); ok {
				c.add(s, allStrings)
			}
		}
		for _, k := range x.Keys() {
			c.add(k, !allStrings)
		}
	}
	return c
}

// asset is the cardinality of an asset field.
type asset struct {
	multiple bool
	min, max int64 // max 0 means unlimited
}

// assetOf reads options.max_files (default 1: a single file; 0: unlimited) and options.min_files
// (default 0). Invalid values fall back to the defaults; CheckBlueprint reports them.
func assetOf(f content.Field) asset {
	a := asset{max: 1}
	if n, present, ok := optionInt(f.Options, "max_files"); present && ok && n >= 0 {
		a.max = n
	}
	if n, present, ok := optionInt(f.Options, "min_files"); present && ok && n >= 0 {
		a.min = n
	}
	a.multiple = a.max != 1
	return a
}

// optionInt reads an integral option; present is false when the key is absent or nil.
func optionInt(opts *content.Map, key string) (n int64, present, ok bool) {
	v, present := opts.Get(key)
	if !present || v == nil {
		return 0, false, false
	}
	f, ok := toFloat(v)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, true, false
	}
	return int64(f), true, true
}
