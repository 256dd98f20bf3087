package users

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"cms/content"
	"cms/content/password"
	"cms/handlers/web"
)

var (
	emailRE     = regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)
	roleRE      = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	reservedIDs = []string{"me", "capabilities"} // path words of the group, never user ids
)

// Bounds of user and role payloads.
const (
	maxEmail       = 254
	maxName        = 200
	maxRoleHandle  = 64
	maxRoleDisplay = 120
	maxPermissions = 200
)

// roleResources are the resources a role may grant: the spec's nine plus those newer features
// add (API tokens, git sync, SEO), all in content.Resources.
var roleResources = append([]string{}, content.Resources...)

// decodeObject parses a JSON body that must be an object. Malformed JSON is a 400; any other JSON
// value, or one nested deeper than content.MaxNesting, is a 422.
func decodeObject(op string, body []byte) (map[string]json.RawMessage, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, web.BadRequest("Request body is empty; expected a JSON object")
	}
	if !json.Valid(body) {
		return nil, web.BadRequest("Request body is not valid JSON")
	}
	if err := content.CheckJSONNesting(op, body); err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil || m == nil {
		return nil, content.Invalidf(op, "Payload must be a JSON object")
	}
	return m, nil
}

// fieldReader pulls typed fields out of a decoded object, collecting messages per field.
type fieldReader struct {
	m    map[string]json.RawMessage
	errs content.FieldErrors
	used map[string]bool
}

func newFieldReader(m map[string]json.RawMessage) *fieldReader {
	return &fieldReader{m: m, errs: content.FieldErrors{}, used: map[string]bool{}}
}

// str reads an optional string; present reports whether the key was there.
func (f *fieldReader) str(k string) (s string, present bool) {
	raw, ok := f.m[k]
	f.used[k] = true
	if !ok {
		return "", false
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		f.errs.Add(k, "Must be a string")
		return "", true
	}
	return s, true
}

// strs reads an optional array of strings.
func (f *fieldReader) strs(k string) (out []string, present bool) {
	raw, ok := f.m[k]
	f.used[k] = true
	if !ok {
		return nil, false
	}
	if err := json.Unmarshal(raw, &out); err != nil || out == nil {
		f.errs.Add(k, "Must be an array of strings")
		return nil, true
	}
	return out, true
}

// unknown reports every key that no reader asked for.
func (f *fieldReader) unknown() {
	for k := range f.m {
		if !f.used[k] {
			f.errs.Add(k, "Unknown field")
		}
	}
}

func checkEmail(f *fieldReader, email string) string {
	email = strings.ToLower(strings.TrimSpace(email))
	switch {
	case email == "":
		f.errs.Add("email", "Email is required")
	case len(email) > maxEmail || !emailRE.MatchString(email):
		f.errs.Add("email", "Email must be a valid email address")
	}
	return email
}

func checkName(f *fieldReader, name string) string {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		f.errs.Add("name", "Name is required")
	case utf8.RuneCountInString(name) > maxName:
		f.errs.Add("name", fmt.Sprintf("Name must be at most %d characters", maxName))
	}
	return name
}

func checkPassword(f *fieldReader, field, pw string) {
	if pw == "" {
		f.errs.Add(field, "Password is required")
	} else if msg := password.CheckPolicy(pw); msg != "" {
		f.errs.Add(field, msg)
	}
}

// checkRoleList validates the syntax of a user's role handles; existence is checked against the
// store by the caller.
func checkRoleList(f *fieldReader, roles []string) []string {
	seen := map[string]bool{}
	for _, r := range roles {
		switch {
		case !roleRE.MatchString(r) || len(r) > maxRoleHandle:
			f.errs.Add("roles", fmt.Sprintf("Invalid role handle %q", r))
		case seen[r]:
			f.errs.Add("roles", fmt.Sprintf("Role %q is listed twice", r))
		}
		seen[r] = true
	}
	return roles
}

func checkTheme(f *fieldReader, theme string) {
	if theme != "light" && theme != "dark" {
		f.errs.Add("theme", `Theme must be "light" or "dark"`)
	}
}

// createRequest is a validated POST /api/users body.
type createRequest struct {
	ID, Email, Name, Password, Theme string
	Roles                            []string
}

// parseCreate validates a create-user body: email, name and password are required, id is
// optional (a UUID is generated), roles default to none.
func parseCreate(body []byte) (createRequest, error) {
	const op = "users.create"
	m, err := decodeObject(op, body)
	if err != nil {
		return createRequest{}, err
	}
	f := newFieldReader(m)
	var req createRequest
	if id, ok := f.str("id"); ok && id != "" {
		if !content.ValidHandle(id) || slices.Contains(reservedIDs, id) {
			f.errs.Add("id", "Invalid user id: use letters, digits, '-' and '_', starting with a letter or digit")
		}
		req.ID = id
	}
	email, _ := f.str("email")
	req.Email = checkEmail(f, email)
	name, _ := f.str("name")
	req.Name = checkName(f, name)
	req.Password, _ = f.str("password")
	checkPassword(f, "password", req.Password)
	if roles, ok := f.strs("roles"); ok {
		req.Roles = checkRoleList(f, roles)
	}
	if theme, ok := f.str("theme"); ok {
		checkTheme(f, theme)
		req.Theme = theme
	}
	f.unknown()
	if err := f.errs.Err(op, "User payload is invalid"); err != nil {
		return createRequest{}, err
	}
	return req, nil
}

// updateRequest is a validated PUT /api/users/{id} body; nil fields are unchanged.
type updateRequest struct {
	Email, Name, Password, Theme *string
	Roles                        []string
	RolesSet                     bool
	Keys                         []string // keys present, for the self-service rule
}

// parseUpdate validates an update-user body. An "id" key is accepted when it names the user
// being updated.
func parseUpdate(id string, body []byte) (updateRequest, error) {
	const op = "users.update"
	m, err := decodeObject(op, body)
	if err != nil {
		return updateRequest{}, err
	}
	f := newFieldReader(m)
	var req updateRequest
	for k := range m {
		req.Keys = append(req.Keys, k)
	}
	slices.Sort(req.Keys)
	if got, ok := f.str("id"); ok && got != id {
		f.errs.Add("id", "The id cannot be changed")
	}
	if v, ok := f.str("email"); ok {
		v = checkEmail(f, v)
		req.Email = &v
	}
	if v, ok := f.str("name"); ok {
		v = checkName(f, v)
		req.Name = &v
	}
	if v, ok := f.str("password"); ok {
		checkPassword(f, "password", v)
		req.Password = &v
	}
	if v, ok := f.strs("roles"); ok {
		req.Roles, req.RolesSet = checkRoleList(f, v), true
	}
	if v, ok := f.str("theme"); ok {
		checkTheme(f, v)
		req.Theme = &v
	}
	f.unknown()
	if err := f.errs.Err(op, "User payload is invalid"); err != nil {
		return updateRequest{}, err
	}
	return req, nil
}

// passwordRequest is a validated password-change body.
type passwordRequest struct {
	Current, New string
}

// parsePassword validates {"currentPassword","newPassword"}; the current password is required
// only when needCurrent is set.
func parsePassword(body []byte, needCurrent bool) (passwordRequest, error) {
	const op = "users.password"
	m, err := decodeObject(op, body)
	if err != nil {
		return passwordRequest{}, err
	}
	f := newFieldReader(m)
	var req passwordRequest
	req.Current, _ = f.str("currentPassword")
	if needCurrent && req.Current == "" {
		f.errs.Add("currentPassword", "Current password is required")
	}
	req.New, _ = f.str("newPassword")
	checkPassword(f, "newPassword", req.New)
	f.unknown()
	if err := f.errs.Err(op, "Password change is invalid"); err != nil {
		return passwordRequest{}, err
	}
	return req, nil
}

// parseRole validates a role body. For a create the handle comes from the body; for an update
// it is the path's, and a "handle" key must match it.
func parseRole(handle string, body []byte) (*content.Role, error) {
	const op = "users.role"
	m, err := decodeObject(op, body)
	if err != nil {
		return nil, err
	}
	f := newFieldReader(m)
	r := &content.Role{Handle: handle, Permissions: []content.Permission{}}
	if h, ok := f.str("handle"); handle == "" {
		switch {
		case !ok || h == "":
			f.errs.Add("handle", "Handle is required")
		case !roleRE.MatchString(h) || len(h) > maxRoleHandle:
			f.errs.Add("handle", "Handle must be lower-case letters, digits and '-', starting with a letter or digit")
		}
		r.Handle = h
	} else if ok && h != handle {
		f.errs.Add("handle", "The handle cannot be changed")
	}
	display, _ := f.str("display")
	r.Display = strings.TrimSpace(display)
	if n := utf8.RuneCountInString(r.Display); n < 1 || n > maxRoleDisplay {
		f.errs.Add("display", fmt.Sprintf("Display must be 1 to %d characters", maxRoleDisplay))
	}
	raw, ok := m["permissions"]
	f.used["permissions"] = true
	var list []map[string]json.RawMessage
	if !ok {
		f.errs.Add("permissions", "Permissions are required")
	} else if err := json.Unmarshal(raw, &list); err != nil || list == nil {
		f.errs.Add("permissions", "Permissions must be an array of objects")
	} else if len(list) > maxPermissions {
		f.errs.Add("permissions", fmt.Sprintf("At most %d permissions", maxPermissions))
	} else {
		for i, pm := range list {
			r.Permissions = append(r.Permissions, parsePermission(f, fmt.Sprintf("permissions[%d]", i), pm))
		}
	}
	f.unknown()
	if err := f.errs.Err(op, "Role payload is invalid"); err != nil {
		return nil, err
	}
	return r, nil
}

func parsePermission(parent *fieldReader, at string, m map[string]json.RawMessage) content.Permission {
	f := newFieldReader(m)
	var p content.Permission
	if m == nil {
		parent.errs.Add(at, "Must be an object")
		return p
	}
	p.Resource, _ = f.str("resource")
	if !slices.Contains(roleResources, p.Resource) {
		f.errs.Add("resource", fmt.Sprintf("Unknown resource %q", p.Resource))
	}
	actions, _ := f.strs("actions")
	for _, a := range actions {
		if !slices.Contains(content.Actions, a) {
			f.errs.Add("actions", fmt.Sprintf("Unknown action %q", a))
		} else if !slices.Contains(p.Actions, a) {
			p.Actions = append(p.Actions, a)
		}
	}
	if len(p.Actions) == 0 && len(f.errs["actions"]) == 0 {
		f.errs.Add("actions", "At least one action is required")
	}
	if scope, ok := f.str("scope"); ok {
		if !content.IsName(scope, 128, false, "_-") {
			f.errs.Add("scope", "Scope must be a handle")
		}
		p.Scope = scope
	}
	f.unknown()
	for k, msgs := range f.errs {
		for _, msg := range msgs {
			parent.errs.Add(at+"."+k, msg)
		}
	}
	return p
}

// readJSON reads a request body declared as JSON (415 otherwise, as every JSON endpoint: a
// cross-site form cannot send that type without a preflight) of at most maxBody bytes.
func readJSON(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if err := web.RequireJSON(r); err != nil {
		return nil, err
	}
	return web.ReadBody(w, r, maxBody)
}
