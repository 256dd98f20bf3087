package validate

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"cms/content"
)

// Problem codes reported by CheckBlueprint.
const (
	CodeInvalidType          = "INVALID_TYPE"
	CodeUnknownRule          = "UNKNOWN_RULE"
	CodeInvalidRule          = "INVALID_RULE"
	CodeInapplicableRule     = "INAPPLICABLE_RULE"
	CodeDuplicateHandle      = "DUPLICATE_HANDLE"
	CodeInvalidOption        = "INVALID_OPTION"
	CodeDanglingVisibility   = "DANGLING_VISIBILITY_REF"
	CodeMissingProperty      = "MISSING_PROPERTY"
	CodeUnsupportedFormField = "UNSUPPORTED_PUBLIC_FORM_FIELDS"
)

var (
	// numberRE is the decimal notation accepted from text; it keeps out what strconv would also
	// take (NaN, Inf, hex floats, underscores) but no form user means as a number.
	numberRE  = regexp.MustCompile(`^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$`)
	integerRE = regexp.MustCompile(`^[+-]?[0-9]+$`)
	// isoDateRE gates time.Parse, which alone would take one-digit hours and other near misses.
	isoDateRE = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[Tt ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?(?:[Zz]|[+-][0-9]{2}:[0-9]{2})?)?$`)
)

// rule is one parsed entry of a field's validate list.
type rule struct {
	name   string
	param  string         // the text after the first colon, as written
	n      float64        // min, max, size
	lo, hi float64        // numeric_range
	list   []string       // in, not_in
	re     *regexp.Regexp // regex
	t      time.Time      // after, before
	hook   string         // hook name
	arg    string         // hook argument: the text after the second colon
}

// ruleProblem is what is wrong with a rule string. A warning leaves the rule usable.
type ruleProblem struct {
	code    string
	message string
	warning bool
}

// parseRule parses one rule string. A rule comes back usable when the problem is nil or only a
// warning; otherwise validation ignores it.
func parseRule(s string) (rule, *ruleProblem) {
	name, param, hasParam := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	r := rule{name: name, param: param}
	invalid := func(format string, args ...any) (rule, *ruleProblem) {
		return r, &ruleProblem{code: CodeInvalidRule, message: fmt.Sprintf(format, args...)}
	}
	switch name {
	case "":
		return invalid("Empty validation rule")
	case "required", "url", "email", "alpha", "alpha_dash", "alpha_num", "lowercase", "uppercase",
		"integer", "numeric", "date", "accepted":
		if hasParam && strings.TrimSpace(param) != "" {
			return r, &ruleProblem{code: CodeInvalidRule, warning: true,
				message: fmt.Sprintf("Rule %q takes no parameter; %q is ignored", name, param)}
		}
	case "min", "max", "size":
		n, ok := parseNumber(param)
		if !ok {
			return invalid("Rule %q needs a number, as in %s:3", name, name)
		}
		r.n = n
	case "numeric_range":
		a, b, _ := strings.Cut(param, ",")
		lo, okLo := parseNumber(a)
		hi, okHi := parseNumber(b)
		if !okLo || !okHi {
			return invalid("Rule %q needs two numbers, as in numeric_range:1,10", name)
		}
		if lo > hi {
			return invalid("Rule %q has its lower bound %s above its upper bound %s", name, formatNumber(lo), formatNumber(hi))
		}
		r.lo, r.hi = lo, hi
	case "regex":
		if param == "" {
			return invalid("Rule %q needs a pattern, as in regex:^[a-z]+$", name)
		}
		re, err := regexp.Compile(param)
		if err != nil {
			return invalid("Rule %q has an invalid pattern: %v", name, err)
		}
		r.re = re
	case "in", "not_in":
		for item := range strings.SplitSeq(param, ",") {
			if item = strings.TrimSpace(item); item != "" {
				r.list = append(r.list, item)
			}
		}
		if len(r.list) == 0 {
			return invalid("Rule %q needs a list of values, as in %s:a,b,c", name, name)
		}
	case "after", "before":
		t, ok := parseDate(strings.TrimSpace(param))
		if !ok {
			return invalid("Rule %q needs an ISO 8601 date, as in %s:2024-01-31", name, name)
		}
		r.param = strings.TrimSpace(param)
		r.t = t
	case "hook":
		r.hook, r.arg, _ = strings.Cut(param, ":")
		if len(r.hook) > content.MaxHandleLen || !content.IsName(r.hook, content.MaxHandleLen, true, "_-") {
			return invalid("Rule %q needs a hook name of lowercase letters, digits, '_' and '-', as in hook:vat-number", name)
		}
	default:
		return r, &ruleProblem{code: CodeUnknownRule, message: fmt.Sprintf("Unknown validation rule %q", name)}
	}
	return r, nil
}

// usable reports whether a rule parsed with problem p takes part in validation.
func usable(p *ruleProblem) bool { return p == nil || p.warning }

// shape is how rules measure a field's value.
type shape uint8

const (
	shapeOther  shape = iota // toggle, hidden: only required, accepted and hooks
	shapeText                // measured in characters
	shapeNumber              // measured by value
	shapeList                // measured by item count
)

// fieldShape returns the shape of a field type, and false for unknown types.
func fieldShape(typ string) (shape, bool) {
	switch typ {
	case "text", "slug", "markdown", "code", "yaml", "date", "select", "tiptap":
		return shapeText, true
	case "number":
		return shapeNumber, true
	case "multiselect", "entries", "taxonomy", "asset", "replicator", "grid", "blocks":
		return shapeList, true
	case "toggle", "hidden":
		return shapeOther, true
	}
	return shapeOther, false
}

// applies reports whether the rule named name does anything for a field type. Rules that do not
// apply are ignored at validation and reported as warnings by CheckBlueprint.
func applies(name, typ string) bool {
	if typ == "hidden" {
		return false // hidden fields are never validated
	}
	sh, _ := fieldShape(typ)
	switch name {
	case "required", "hook":
		return true
	case "accepted":
		return typ == "toggle" || sh == shapeText
	case "min", "max", "size", "in", "not_in":
		return sh != shapeOther
	case "numeric_range":
		return sh == shapeNumber
	case "integer", "numeric":
		return sh == shapeText || sh == shapeNumber
	case "regex", "url", "email", "alpha", "alpha_dash", "alpha_num", "lowercase", "uppercase",
		"date", "after", "before":
		return sh == shapeText
	}
	return false
}

// parseNumber parses a decimal number written in a rule or a form field.
func parseNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if !numberRE.MatchString(s) {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// formatNumber writes a number the way a person would: 3, 2.5, -1.
func formatNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// parseDate parses an ISO 8601 date ("2024-01-31") or date-time ("2024-01-31T10:00:00Z", with
// optional seconds, fraction and zone; 't', 'z' and a space separator are accepted). A value
// without a zone is UTC.
func parseDate(s string) (time.Time, bool) {
	if !isoDateRE.MatchString(s) {
		return time.Time{}, false
	}
	// One spelling of the separators lets one set of layouts serve them all.
	b := []byte(s)
	if len(b) > 10 {
		b[10] = 'T'
		if b[len(b)-1] == 'z' {
			b[len(b)-1] = 'Z'
		}
	}
	// time.Parse accepts a fraction after the seconds without it being in the layout.
	layouts := [...]string{
		"2006-01-02",
		"2006-01-02T15:04",
		"2006-01-02T15:04Z07:00",
		"2006-01-02T15:04:05",
		"2006-01-02T15:04:05Z07:00",
	}
	for _, l := range layouts {
		if t, err := time.Parse(l, string(b)); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
