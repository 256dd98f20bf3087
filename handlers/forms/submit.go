package forms

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"cms/content"
	"cms/content/validate"
	"cms/handlers/web"
)

// honeypotField is the spam trap field people leave empty.
const honeypotField = "_honeypot"

// submittedAtLayout is how submittedAt is written when the store does not write it.
const submittedAtLayout = "2006-01-02T15:04:05.000Z"

// POST /api/forms/{handle}/submit: a submission, handled in the order the package doc gives.
func (a *api) submit(w http.ResponseWriter, r *http.Request) error {
	const op = "forms.submit"
	handle := r.PathValue("handle")
	browser := wantsRedirect(r)
	if r.ContentLength > a.MaxBodyBytes {
		return a.failed(w, r, browser, nil, web.TooLarge(a.MaxBodyBytes))
	}
	f, err := a.usable(handle)
	if err != nil {
		return err
	}
	now := a.Now()
	if a.limiter != nil {
		if ok, retry := a.limiter.allow(handle+"\x00"+web.ClientAddress(r), now); !ok {
			return a.failed(w, r, browser, f, rateLimited(retry))
		}
	}
	values, err := decodeBody(w, r, a.MaxBodyBytes)
	if err != nil {
		return a.failed(w, r, browser, f, err)
	}

	// (1) Honeypot, checked on the raw values: filtering would drop the field it looks at.
	if f.def.Honeypot && filled(values.Value(honeypotField)) {
		a.Log.LogAttrs(r.Context(), slog.LevelDebug, "honeypot submission dropped", slog.String("form", handle))
		values.Delete(honeypotField)
		// The answer looks like a stored submission, so a bot learns nothing.
		decoy := &content.Submission{ID: content.NewSubmissionID(now), Form: handle,
			SubmittedAt: now.UTC().Format(submittedAtLayout), Data: validate.FilterVisible(f.fields, validate.CoerceAll(f.fields, values))}
		return a.succeeded(w, r, browser, f, decoy)
	}
	values.Delete(honeypotField)

	// (2) Coerce and validate.
	for _, h := range f.hooks {
		if a.Hooks == nil || !a.Hooks.Installed(h) {
			return a.failed(w, r, browser, f, hookUnavailable(handle, h))
		}
	}
	coerced := validate.CoerceAll(f.fields, values)
	opts := validate.Options{Form: handle, Locale: a.locale(r), Log: a.Log}
	if a.Hooks != nil {
		opts.Hooks = a.Hooks
	}
	fieldErrs, err := validate.Values(r.Context(), f.fields, coerced, opts)
	if err != nil {
		return a.failed(w, r, browser, f, err)
	}
	// (3) Invalid values: a browser also gets back what it sent, to fill the form in again.
	if len(fieldErrs) > 0 {
		return a.failedWith(w, r, browser, f, content.InvalidFields(op, "Validation failed", fieldErrs), oldValues(f, values))
	}
	// (4) Keep the visible blueprint fields and store them.
	data := validate.FilterVisible(f.fields, coerced)
	var sub *content.Submission
	if f.def.StoreSubmissions {
		if sub, err = a.Submissions.CreateSubmission(handle, data, now); err != nil {
			return fmt.Errorf("%s: store submission of %s: %w", op, handle, err)
		}
	} else {
		sub = &content.Submission{ID: content.NewSubmissionID(now), Form: handle,
			SubmittedAt: now.UTC().Format(submittedAtLayout), Data: data}
	}
	return a.succeeded(w, r, browser, f, sub)
}

// submissionJSON is json.Marshal(web.Data{Data: sub}) without reflection: the fields in their
// order, each string as json.Marshal writes it, and the data as its MarshalJSON writes it, which
// is compact and escaped as json.Marshal would leave it.
func submissionJSON(sub *content.Submission) ([]byte, error) {
	b := make([]byte, 0, 512)
	b = append(b, `{"data":{"id":`...)
	b = appendJSONString(b, sub.ID)
	b = append(b, `,"form":`...)
	b = appendJSONString(b, sub.Form)
	b = append(b, `,"submittedAt":`...)
	b = appendJSONString(b, sub.SubmittedAt)
	b = append(b, `,"data":`...)
	if sub.Data == nil {
		b = append(b, "null"...)
	} else {
		var err error
		if b, err = appendJSONMap(b, sub.Data); err != nil {
			return nil, err
		}
	}
	return append(b, "}}"...), nil
}

// appendJSONMap appends m as its MarshalJSON writes it, with the common values written directly.
func appendJSONMap(b []byte, m *content.Map) ([]byte, error) {
	b = append(b, '{')
	for i, k := range m.Keys() {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		var err error
		if b, err = appendJSONValue(b, m.Value(k)); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

func appendJSONValue(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendJSONString(b, x), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case *content.Map:
		return appendJSONMap(b, x)
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSONValue(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	// Floats and anything else, as content.Map writes them.
	one := content.NewMap(1)
	one.Set("v", v)
	raw, err := one.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return append(b, raw[len(`{"v":`):len(raw)-1]...), nil
}

// appendJSONString appends s quoted as json.Marshal quotes it: plain ASCII as is, anything
// else through json.Marshal.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// filled reports whether the honeypot holds anything: a non-blank string, or any other value
// a bot might have put there.
func filled(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case string:
		return strings.TrimSpace(x) != ""
	case bool:
		return x
	case []any:
		for _, e := range x {
			if filled(e) {
				return true
			}
		}
		return false
	}
	return true
}

func hookUnavailable(form, hook string) error {
	return &content.Error{Kind: content.Unavailable, Op: "forms.submit", Code: validate.CodeHookUnavailable,
		Message: fmt.Sprintf("Form %q cannot accept submissions right now: its validation hook %q is not installed", form, hook)}
}

// succeeded answers a stored (or decoy) submission: 201 JSON, or a 303 for a browser.
func (a *api) succeeded(w http.ResponseWriter, r *http.Request, browser bool, f *form, sub *content.Submission) error {
	if !browser {
		if b, err := submissionJSON(sub); err == nil {
			web.WriteJSONBytes(w, http.StatusCreated, b)
		} else {
			web.WriteJSON(w, http.StatusCreated, web.Data{Data: sub})
		}
		return nil
	}
	target := a.allowedRedirect(r, f.def.Redirect)
	if target == nil {
		target = a.sameSiteReferer(r)
	}
	redirect(w, target, url.Values{"form": {f.def.Handle}, "status": {"ok"}})
	return nil
}

// failed returns err for API clients, and sends a browser back to the page it came from with the
// error in the query. Unknown and misconfigured forms always get their JSON error.
func (a *api) failed(w http.ResponseWriter, r *http.Request, browser bool, f *form, err error) error {
	return a.failedWith(w, r, browser, f, err, "")
}

// failedWith is failed with the values the browser sent, given back with validation errors.
func (a *api) failedWith(w http.ResponseWriter, r *http.Request, browser bool, f *form, err error, old string) error {
	if !browser {
		return err
	}
	status, body, hdr := web.Describe(err)
	if status == http.StatusNotFound || status >= 500 && status != http.StatusServiceUnavailable {
		return err
	}
	q := url.Values{"status": {"error"}, "code": {body.Code}}
	target := a.sameSiteReferer(r)
	if f != nil {
		q.Set("form", f.def.Handle)
		if target == nil {
			target = a.allowedRedirect(r, f.def.Redirect)
		}
	}
	if ce, ok := errors.AsType[*content.Error](err); ok && len(ce.Fields) > 0 {
		raw, _ := json.Marshal(ce.Fields)
		q.Set("errors", string(raw))
		if old != "" {
			q.Set("old", old)
		}
	}
	if info := web.InfoFrom(r.Context()); info != nil {
		info.Err, info.Code = err, body.Code
	}
	for k, vs := range hdr {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	redirect(w, target, q)
	return nil
}

// Bounds of the values a failed browser post gets back in its redirect (?old=): a URL stays
// short, so longer values (a long message) are left for the visitor to type again.
const (
	maxOldValue = 500
	maxOldTotal = 2000
)

// oldValues are, for the redirect of a failed browser post, the text values of the form's own
// fields (never the honeypot, nothing unknown) as JSON ("" for none): the page that shows the
// form fills them in again next to the errors.
func oldValues(f *form, values *content.Map) string {
	old := map[string]string{}
	total := 0
	for _, fl := range f.fields {
		var s string
		switch v := values.Value(fl.Handle).(type) {
		case string:
			s = v
		case bool:
			s = strconv.FormatBool(v)
		default:
			continue
		}
		if s == "" || len(s) > maxOldValue || total+len(s) > maxOldTotal {
			continue
		}
		old[fl.Handle] = s
		total += len(s)
	}
	if len(old) == 0 {
		return ""
	}
	raw, _ := json.Marshal(old)
	return string(raw)
}

// redirect sends a 303 to target (nil: "/") with q merged into its query.
func redirect(w http.ResponseWriter, target *url.URL, q url.Values) {
	if target == nil {
		target = &url.URL{Path: "/"}
	}
	u := *target
	merged := u.Query()
	for k, vs := range q {
		merged[k] = vs
	}
	u.RawQuery = merged.Encode()
	w.Header().Set("Location", u.String())
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusSeeOther)
}

// allowedRedirect parses a form's redirect: a path on this site ("/thanks"), or an absolute
// http(s) URL on this host or a configured site. Anything else (another site, "//evil",
// "javascript:") is ignored.
func (a *api) allowedRedirect(r *http.Request, s string) *url.URL {
	if s == "" || strings.ContainsAny(s, "\\\r\n\t") {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil {
		return nil
	}
	if u.Scheme == "" && u.Host == "" && u.User == nil {
		if !strings.HasPrefix(u.Path, "/") || strings.HasPrefix(s, "//") {
			return nil
		}
		return u
	}
	if a.sameSite(r, u) {
		return u
	}
	return nil
}

// sameSiteReferer returns the Referer when it is a page of this site.
func (a *api) sameSiteReferer(r *http.Request) *url.URL {
	ref := r.Header.Get("Referer")
	if ref == "" || strings.ContainsAny(ref, "\\\r\n\t") {
		return nil
	}
	u, err := url.Parse(ref)
	if err != nil || !a.sameSite(r, u) {
		return nil
	}
	return u
}

// sameSite reports whether an absolute URL is on the request's host or a configured site.
func (a *api) sameSite(r *http.Request, u *url.URL) bool {
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return false
	}
	return strings.EqualFold(u.Host, r.Host) || a.origins[strings.ToLower(u.Scheme+"://"+u.Host)]
}

// parseOrigins turns the configured site URLs into a set of lower-case scheme://host origins.
func parseOrigins(sites []string) (map[string]bool, error) {
	out := make(map[string]bool, len(sites))
	var bad []string
	for _, s := range sites {
		u, err := url.Parse(strings.TrimSpace(s))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad = append(bad, s)
			continue
		}
		out[strings.ToLower(u.Scheme+"://"+u.Host)] = true
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("forms: site origins must be http(s) URLs: %s", strings.Join(bad, ", "))
	}
	return out, nil
}

// wantsRedirect reports whether the request is a browser form post, answered with a 303: the
// Accept header prefers HTML to JSON, or it states no preference and the body is a form post.
func wantsRedirect(r *http.Request) bool {
	accept := r.Header.Get("Accept")
	html, js := acceptQuality(accept, "text/html"), acceptQuality(accept, typeJSON)
	if html != js {
		return html > js
	}
	mt, _, _ := mediaType(r)
	return mt == typeURLEncoded || mt == typeMultipart
}

// acceptQuality returns the q value an Accept header gives exactly mt (0 when not listed).
func acceptQuality(accept, mt string) float64 {
	for _, part := range strings.Split(accept, ",") {
		typ, params, _ := strings.Cut(part, ";")
		if !strings.EqualFold(strings.TrimSpace(typ), mt) {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.EqualFold(k, "q") {
				if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 0 && f <= 1 {
					q = f
				}
			}
		}
		return q
	}
	return 0
}

var localeRE = regexp.MustCompile(`^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$`)

// locale is the first language of Accept-Language, or the configured default.
func (a *api) locale(r *http.Request) string {
	first, _, _ := strings.Cut(r.Header.Get("Accept-Language"), ",")
	first, _, _ = strings.Cut(first, ";")
	if first = strings.TrimSpace(first); localeRE.MatchString(first) {
		return first
	}
	return a.Locale
}
