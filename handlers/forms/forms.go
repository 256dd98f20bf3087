// Package forms serves form definitions, public form submissions and, to the Control Panel, the
// stored submissions:
//
//	GET    /api/forms                                  anonymous: every usable form with its public fields
//	GET    /api/forms/{handle}                         anonymous: one form
//	POST   /api/forms/{handle}/submit                  anonymous: submit (JSON, urlencoded or multipart)
//	GET    /api/forms/{handle}/submissions             forms:view   ?page=1&perPage=20&sort=newest|oldest
//	GET    /api/forms/{handle}/submissions/{id}        forms:view
//	DELETE /api/forms/{handle}/submissions/{id}        forms:delete removes the file
//	GET    /api/forms/{handle}/export/csv              forms:view   streamed CSV
//	GET    /api/forms/{handle}/export/json             forms:view   streamed JSON array
//
// # Submitting
//
// A submission is handled in this order: a body over MaxBodyBytes (64 KiB) is refused with 413
// PAYLOAD_TOO_LARGE; an unknown form is 404; a form whose blueprint is missing or fails
// [validate.CheckBlueprint] answers 500 FORM_MISCONFIGURED (and is logged) instead of accepting
// data; more than RateLimit submissions a minute to one form from one client address get 429
// RATE_LIMITED with Retry-After. Then the body is decoded, and
//
//  1. when the form has honeypot: true and the field _honeypot is not empty, the submission is
//     dropped and answered as if it had been stored (201, with a fresh id);
//  2. the values are coerced to their field types ([validate.CoerceAll]: "3" to 3, "on" to true, a
//     single string to a one-item list) and validated ([validate.Values]); a blueprint that calls
//     a hook that is not installed refuses the submission with 503 HOOK_UNAVAILABLE;
//  3. invalid values get 422 VALIDATION_ERROR with a list of messages per field in fields;
//  4. otherwise only the visible blueprint fields that were submitted are kept
//     ([validate.FilterVisible]: unknown keys, _honeypot and fields hidden by a visibility rule
//     are dropped) and, unless the form has store_submissions: false, stored as
//     content/forms/{handle}/{timestamp}-{uuid}.yaml; the answer is 201
//     {"data":{"id","form","submittedAt","data"}}.
//
// Bodies may be JSON (an object), application/x-www-form-urlencoded or multipart/form-data.
// Form posts carry strings: a key given several times, or ending in "[]" (tags[]=a&tags[]=b),
// becomes a list. Multipart file parts are refused with 400 BAD_REQUEST (an empty file input is
// ignored): forms do not take uploads.
//
// # Browser form posts
//
// A plain HTML form post (urlencoded or multipart, unless the Accept header prefers JSON; or any
// request whose Accept header prefers text/html) is answered with 303 See Other instead of JSON:
//
//   - on success (and for a honeypot hit) to the form's redirect (a path on this site, or a URL on
//     one of the configured sites), else to the Referer when it is this site, else to /; with
//     ?form={handle}&status=ok added;
//   - on failure back to the Referer (else redirect, else /) with ?form={handle}&status=error&code=
//     {CODE} added, and for validation errors errors={URL-encoded JSON of the fields object} and
//     old={the text sent for the form's own fields, bounded};
//     429 keeps its Retry-After header. An unknown or misconfigured form still gets its JSON
//     error: there is no page to send the visitor back to that could fix it.
//
// # Exports
//
// Both exports stream: they read one submission file at a time, so memory does not grow with
// the number of submissions. The CSV has the columns id, submitted_at and then every field
// handle found in any submission, sorted; the file is read twice (keys, then rows). Fields are
// quoted as RFC 4180 says (CRLF line ends), lists are joined with ", ", objects written as JSON,
// and text starting with =, +, -, @, a tab or a carriage return (after spaces) gets a leading
// ' so that spreadsheets do not run it as a formula.
package forms

import (
	"errors"
	"iter"
	"log/slog"
	"net/http"
	"time"

	"cms/content"
	"cms/content/validate"
	"cms/handlers/web"
)

// Definitions reads form definitions and their blueprints.
type Definitions interface {
	// FormDefs lists form definitions sorted by handle.
	FormDefs() []*content.FormDef
	// FormDef returns a NotFound error for an unknown form.
	FormDef(handle string) (*content.FormDef, error)
	// Blueprint returns a NotFound error for a missing (or unloadable) blueprint.
	Blueprint(kind, handle string) (*content.Blueprint, error)
	// DefinitionsGeneration changes whenever any definition changes.
	DefinitionsGeneration() uint64
}

// Submissions stores form submissions.
type Submissions interface {
	// CreateSubmission stores a new submission made at at and returns it.
	CreateSubmission(form string, data *content.Map, at time.Time) (*content.Submission, error)
	// Submissions returns a page of a form's submissions (sort "newest" or "oldest") and the total.
	Submissions(form string, page, perPage int, sort string) ([]*content.Submission, int, error)
	// Submission returns a NotFound error for an unknown id.
	Submission(form, id string) (*content.Submission, error)
	// DeleteSubmission returns a NotFound error for an unknown id.
	DeleteSubmission(form, id string) error
	// EachSubmission yields a form's submissions oldest first, one file at a time.
	EachSubmission(form string) iter.Seq2[*content.Submission, error]
}

// Hooks runs WASM validation hooks.
type Hooks interface {
	validate.HookRunner
	// Installed reports whether a hook of that name is installed and can be run.
	Installed(name string) bool
}

// Deps are the inputs of the group.
type Deps struct {
	Definitions Definitions
	Submissions Submissions
	// Hooks runs hook rules; nil makes every form whose blueprint calls a hook answer 503.
	Hooks Hooks
	// Auth authenticates the submissions endpoints; nil makes them answer 401.
	Auth web.Authenticator
	// RateLimit is the number of submissions a minute one client address may make to one form;
	// 0 switches the limit off (benchmarks).
	RateLimit int
	// MaxBodyBytes bounds a submission's body; 0 means 64 KiB.
	MaxBodyBytes int64
	// SiteOrigins are the configured public origins (scheme://host[:port]) a form's redirect and a
	// Referer may point to, besides the request's own host.
	SiteOrigins []string
	// Locale is passed to hooks when the request names none in Accept-Language; "" means "en".
	Locale string
	Log    *slog.Logger
	Now    func() time.Time
}

// Defaults.
const (
	DefaultMaxBodyBytes = 64 << 10
	DefaultPerPage      = 20
	MaxPerPage          = 100
	// maxLimiterKeys bounds the rate limiter's memory: beyond it, the oldest windows are dropped.
	maxLimiterKeys = 10000
)

// CodeMisconfigured is the code of the 500 a form with a broken blueprint answers.
const CodeMisconfigured = "FORM_MISCONFIGURED"

type api struct {
	Deps
	forms   *formCache
	limiter *limiter
	origins map[string]bool
}

// Prefixes are the path prefixes the group serves.
func Prefixes() []string { return []string{"/api/forms", "/api/forms/"} }

// New builds the group's handler.
func New(d Deps) (http.Handler, error) {
	var errs []error
	if d.Definitions == nil {
		errs = append(errs, errors.New("forms: Definitions is required"))
	}
	if d.Submissions == nil {
		errs = append(errs, errors.New("forms: Submissions is required"))
	}
	if d.RateLimit < 0 {
		errs = append(errs, errors.New("forms: RateLimit must be 0 (off) or more"))
	}
	if d.MaxBodyBytes < 0 {
		errs = append(errs, errors.New("forms: MaxBodyBytes must not be negative"))
	}
	origins, err := parseOrigins(d.SiteOrigins)
	if err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if d.MaxBodyBytes == 0 {
		d.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if d.Locale == "" {
		d.Locale = "en"
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	a := &api{Deps: d, forms: newFormCache(d.Definitions), origins: origins}
	if d.RateLimit > 0 {
		a.limiter = newLimiter(d.RateLimit, time.Minute, maxLimiterKeys)
	}
	rt := web.NewRouter()
	rt.HandleFunc("GET /api/forms", a.list)
	rt.HandleFunc("GET /api/forms/{handle}", a.get)
	rt.HandleFunc("POST /api/forms/{handle}/submit", a.submit)
	rt.HandleFunc("GET /api/forms/{handle}/submissions", a.submissions)
	rt.HandleFunc("GET /api/forms/{handle}/submissions/{id}", a.submission)
	rt.HandleFunc("DELETE /api/forms/{handle}/submissions/{id}", a.deleteSubmission)
	rt.HandleFunc("GET /api/forms/{handle}/export/csv", a.exportCSV)
	rt.HandleFunc("GET /api/forms/{handle}/export/json", a.exportJSON)
	rt.NotFound("/api/forms/")
	return rt, nil
}
