package validate

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"unicode"

	"cms/content"
)

// Messages for hook outcomes.
const (
	msgHookFailed  = "Could not be validated"
	msgHookInvalid = "Is not valid"
	// maxHookMessage bounds a hook's message in runes; the ABI promises 512.
	maxHookMessage = 512
)

// CodeHookUnavailable is the Code of the error Values returns when a hook cannot be run.
const CodeHookUnavailable = "HOOK_UNAVAILABLE"

// HookRunner runs WASM validation hooks. An error of Kind content.Unavailable (the hook is not
// installed) refuses the whole request; any other error fails the field with a generic message.
type HookRunner interface {
	RunHook(ctx context.Context, call HookCall) (HookResult, error)
}

// HookCall is one question to a hook: is Value valid for Field?
type HookCall struct {
	Name   string       // hook name, from hook:<name>[:<arg>]
	Arg    string       // the text after the second colon, "" if none
	Form   string       // form handle, from Options.Form
	Field  string       // field handle
	Value  any          // the value as submitted
	Data   *content.Map // all submitted values
	Locale string       // from Options.Locale
}

// HookResult is a hook's answer. Message (plain text) and Code matter only when Valid is false.
type HookResult struct {
	Valid   bool
	Message string
	Code    string
}

// Options tune Values.
type Options struct {
	// Hooks runs hook rules. When nil, a hook rule that has to run refuses the request with
	// HOOK_UNAVAILABLE.
	Hooks HookRunner
	// Form is passed to hooks: the form handle, or the collection or global handle when entries
	// or globals are checked.
	Form string
	// Locale is passed to hooks; the built-in messages are English.
	Locale string
	// Log receives the causes of hook failures; nil discards them.
	Log *slog.Logger
	// Partial checks only the fields present in values, for updates that send a subset of the
	// fields (PATCH). An absent field is then never "required"; a present one that is nil or
	// blank still is, since the update would clear it. Visibility is judged on values as given,
	// so pass the merged values instead when a rule refers to a field the update leaves out.
	Partial bool
}

// Values checks values against fields and returns messages per field handle; all fields are
// checked. The error is only for failures that are not the submitter's fault: a hook that cannot
// be run (a *content.Error of Kind content.Unavailable, Code HOOK_UNAVAILABLE) or a cancelled
// context. Values of form posts should go through CoerceAll first.
//
// The FieldErrors are never nil when the error is nil; an empty map means the values are valid.
func Values(ctx context.Context, fields []content.Field, values *content.Map, opts Options) (content.FieldErrors, error) {
	const op = "validate.Values"
	v := validator{ctx: ctx, opts: opts, values: values}
	errs := content.FieldErrors{}
	seen := make(map[string]bool, len(fields))
	for _, f := range fields {
		if f.Handle == "" || f.Type == "hidden" || seen[f.Handle] {
			continue // a duplicate handle is a blueprint mistake; the first definition wins
		}
		seen[f.Handle] = true
		val, present := values.Get(f.Handle)
		if opts.Partial && !present {
			continue
		}
		if !Visible(f, values) {
			continue
		}
		msgs, err := v.field(f, val)
		if err != nil {
			return nil, fmt.Errorf("%s: field %q: %w", op, f.Handle, err)
		}
		for _, m := range msgs {
			errs.Add(f.Handle, m)
		}
	}
	return errs, nil
}

// validator carries one Values call's inputs to the per-field checks.
type validator struct {
	ctx    context.Context
	opts   Options
	values *content.Map
}

// field returns the messages for one visible field.
func (v *validator) field(f content.Field, val any) ([]string, error) {
	var rules []rule
	required, accepted := f.Required, false
	for _, s := range f.Validate {
		r, p := parseRule(s)
		if !usable(p) || !applies(r.name, f.Type) {
			continue
		}
		switch r.name {
		case "required":
			required = true
		case "accepted":
			accepted = true
		default:
			rules = append(rules, r)
		}
	}

	if val == nil {
		switch {
		case required:
			return []string{msgRequired}, nil
		case accepted:
			return []string{msgAccepted}, nil
		}
		return nil, nil
	}
	if m := checkShape(f, val); m != "" {
		return []string{m}, nil
	}
	if blank(f, val) {
		switch {
		case required:
			return []string{msgRequired}, nil
		case accepted:
			return []string{msgAccepted}, nil
		}
		return nil, nil
	}
	msgs := checkFormat(f, val)
	if accepted && !isAccepted(val) {
		msgs = append(msgs, msgAccepted)
	}
	sh, _ := fieldShape(f.Type)
	var hooks []rule
	for _, r := range rules {
		if r.name == "hook" {
			hooks = append(hooks, r)
			continue
		}
		if m := apply(r, f, sh, val); m != "" {
			msgs = append(msgs, m)
		}
	}
	if len(msgs) > 0 {
		return msgs, nil // hooks are dearer than built-in rules and would only add noise
	}
	for _, r := range hooks {
		m, err := v.hook(f, r, val)
		if err != nil || m != "" {
			return []string{m}, err
		}
	}
	return nil, nil
}

// hook runs one hook rule and returns its message, "" when the value is valid.
func (v *validator) hook(f content.Field, r rule, val any) (string, error) {
	if v.opts.Hooks == nil {
		return "", &content.Error{Kind: content.Unavailable, Op: "validate.hook", Code: CodeHookUnavailable,
			Message: fmt.Sprintf("Validation hook %q is not available", r.hook)}
	}
	res, err := v.opts.Hooks.RunHook(v.ctx, HookCall{
		Name: r.hook, Arg: r.arg, Form: v.opts.Form, Field: f.Handle,
		Value: val, Data: v.values, Locale: v.opts.Locale,
	})
	if err != nil {
		if content.KindOf(err) == content.Unavailable {
			return "", &content.Error{Kind: content.Unavailable, Op: "validate.hook", Code: CodeHookUnavailable,
				Message: fmt.Sprintf("Validation hook %q is not available", r.hook), Err: err}
		}
		if cerr := v.ctx.Err(); cerr != nil {
			// The request is gone or out of time: no answer, but not the value's fault either.
			return "", fmt.Errorf("validation hook %q: %w", r.hook, cerr)
		}
		if v.opts.Log != nil {
			v.opts.Log.LogAttrs(v.ctx, slog.LevelError, "validation hook failed",
				slog.String("hook", r.hook), slog.String("form", v.opts.Form),
				slog.String("field", f.Handle), slog.Any("err", err))
		}
		return msgHookFailed, nil
	}
	if res.Valid {
		return "", nil
	}
	msg := strings.TrimSpace(res.Message)
	if msg == "" {
		return msgHookInvalid, nil
	}
	if r := []rune(msg); len(r) > maxHookMessage {
		msg = string(r[:maxHookMessage])
	}
	return msg, nil
}

// Messages of the built-in rules that take no parameter.
const (
	msgAccepted  = "Must be accepted"
	msgURL       = "Must be a valid URL"
	msgEmail     = "Must be a valid email address"
	msgAlpha     = "Must contain only letters"
	msgAlphaNum  = "Must contain only letters and numbers"
	msgAlphaDash = "Must contain only letters, numbers, dashes, and underscores"
	msgLower     = "Must be lowercase"
	msgUpper     = "Must be uppercase"
	msgDate      = "Must be a valid date"
)

// isAccepted reports whether a toggle or text value says yes.
func isAccepted(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "yes", "on", "1", "true":
			return true
		}
	}
	return false
}

// apply runs one parameterised rule on a non-blank value of the right shape and returns its
// message, "" when the value passes.
func apply(r rule, f content.Field, sh shape, v any) string {
	switch sh {
	case shapeText:
		s, ok := textOf(f, v)
		if !ok {
			return ""
		}
		return applyText(r, s)
	case shapeNumber:
		x, ok := toFloat(v)
		if !ok {
			return ""
		}
		return applyNumber(r, x)
	case shapeList:
		n, ok := countOf(v)
		if !ok {
			return ""
		}
		return applyList(r, v, n)
	}
	return ""
}

func applyText(r rule, s string) string {
	n := float64(runeLen(s))
	chars := func(x float64) string { return plural(x, "character", "characters") }
	switch r.name {
	case "min":
		if n < r.n {
			return fmt.Sprintf("Must be at least %s %s", formatNumber(r.n), chars(r.n))
		}
	case "max":
		if n > r.n {
			return fmt.Sprintf("Must be at most %s %s", formatNumber(r.n), chars(r.n))
		}
	case "size":
		if n != r.n {
			return fmt.Sprintf("Must be exactly %s %s", formatNumber(r.n), chars(r.n))
		}
	case "regex":
		if !r.re.MatchString(s) {
			return "Must match pattern " + r.param
		}
	case "url":
		if !validURL(s) {
			return msgURL
		}
	case "email":
		if !validEmail(s) {
			return msgEmail
		}
	case "in":
		if !slices.Contains(r.list, s) {
			return oneOf("Must be one of", r.list)
		}
	case "not_in":
		if slices.Contains(r.list, s) {
			return oneOf("Must not be one of", r.list)
		}
	case "alpha":
		if !onlyRunes(s, isLetter) {
			return msgAlpha
		}
	case "alpha_num":
		if !onlyRunes(s, func(c rune) bool { return isLetter(c) || unicode.IsDigit(c) }) {
			return msgAlphaNum
		}
	case "alpha_dash":
		if !onlyRunes(s, func(c rune) bool { return isLetter(c) || unicode.IsDigit(c) || c == '-' || c == '_' }) {
			return msgAlphaDash
		}
	case "lowercase":
		if strings.ToLower(s) != s {
			return msgLower
		}
	case "uppercase":
		if strings.ToUpper(s) != s {
			return msgUpper
		}
	case "integer":
		if !integerRE.MatchString(strings.TrimSpace(s)) {
			return msgWhole
		}
	case "numeric":
		if _, ok := parseNumber(s); !ok {
			return msgNumber
		}
	case "date":
		if _, ok := parseDate(strings.TrimSpace(s)); !ok {
			return msgDate
		}
	case "after", "before":
		t, ok := parseDate(strings.TrimSpace(s))
		if !ok {
			return msgDate
		}
		if r.name == "after" && !t.After(r.t) {
			return "Must be a date after " + r.param
		}
		if r.name == "before" && !t.Before(r.t) {
			return "Must be a date before " + r.param
		}
	}
	return ""
}

func applyNumber(r rule, x float64) string {
	switch r.name {
	case "min":
		if x < r.n {
			return "Must be at least " + formatNumber(r.n)
		}
	case "max":
		if x > r.n {
			return "Must be at most " + formatNumber(r.n)
		}
	case "size":
		if x != r.n {
			return "Must be exactly " + formatNumber(r.n)
		}
	case "numeric_range":
		if x < r.lo {
			return "Must be at least " + formatNumber(r.lo)
		}
		if x > r.hi {
			return "Must be at most " + formatNumber(r.hi)
		}
	case "in", "not_in":
		found := slices.ContainsFunc(r.list, func(p string) bool {
			y, ok := parseNumber(p)
			return ok && y == x
		})
		if r.name == "in" && !found {
			return oneOf("Must be one of", r.list)
		}
		if r.name == "not_in" && found {
			return oneOf("Must not be one of", r.list)
		}
	case "integer":
		if x != math.Trunc(x) {
			return msgWhole
		}
	}
	return ""
}

func applyList(r rule, v any, n int) string {
	items := func(x float64) string { return plural(x, "item", "items") }
	count := float64(n)
	switch r.name {
	case "min":
		if count < r.n {
			return fmt.Sprintf("Must have at least %s %s", formatNumber(r.n), items(r.n))
		}
	case "max":
		if count > r.n {
			return fmt.Sprintf("Must have at most %s %s", formatNumber(r.n), items(r.n))
		}
	case "size":
		if count != r.n {
			return fmt.Sprintf("Must have exactly %s %s", formatNumber(r.n), items(r.n))
		}
	case "in", "not_in":
		list, ok := asList(v)
		if !ok {
			list = []any{v} // a single asset
		}
		for _, it := range list {
			s, ok := scalarString(it)
			found := ok && slices.Contains(r.list, s)
			if r.name == "in" && !found {
				return oneOf("Each item must be one of", r.list)
			}
			if r.name == "not_in" && found {
				return oneOf("Must not include any of", r.list)
			}
		}
	}
	return ""
}

func isLetter(c rune) bool { return unicode.IsLetter(c) || unicode.IsMark(c) }

func onlyRunes(s string, ok func(rune) bool) bool {
	for _, c := range s {
		if !ok(c) {
			return false
		}
	}
	return true
}
