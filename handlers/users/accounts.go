package users

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/google/uuid"

	"cms/content"
	"cms/content/access"
	"cms/content/sessions"
	"cms/handlers/authn"
	"cms/handlers/web"
)

// View is a user as the API shows it ([content.UserView], the login response's too).
type View = content.UserView

// view builds the API form of u, with the last login this process saw.
func (a *api) view(u *content.User) View {
	t, _ := a.Sessions.LastLogin(u.ID)
	return u.View(t)
}

func noStore(w http.ResponseWriter) { w.Header().Set("Cache-Control", "no-store") }

// pathID returns the user id of the path, with "me" standing for the caller. An id that cannot
// name a user file is a 400.
func pathID(r *http.Request, p *access.Principal) (id string, self bool, err error) {
	id = r.PathValue("id")
	if id == "me" {
		return p.User.ID, true, nil
	}
	if !content.ValidHandle(id) {
		return "", false, web.BadRequest("Invalid user id")
	}
	return id, id == p.User.ID, nil
}

// GET /api/users: every user, without their themes.
func (a *api) list(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "users", "view", ""); err != nil {
		return err
	}
	all := a.Store.Users()
	out := make([]View, 0, len(all))
	for _, u := range all {
		v := a.view(u)
		v.Theme = ""
		out = append(out, v)
	}
	noStore(w)
	web.WriteJSON(w, http.StatusOK, web.Data{Data: out})
	return nil
}

// GET /api/users/{id}: one user, with its ETag.
func (a *api) get(w http.ResponseWriter, r *http.Request) error {
	p, err := web.Authenticated(a.Auth, r)
	if err != nil {
		return err
	}
	id, self, err := pathID(r, p)
	if err != nil {
		return err
	}
	if !self {
		if err := p.Require("users", "view", ""); err != nil {
			return err
		}
	}
	u, hash, err := a.Store.UserVersion(id)
	if err != nil {
		return err
	}
	noStore(w)
	w.Header().Set("ETag", `"`+hash+`"`)
	web.WriteJSON(w, http.StatusOK, web.Data{Data: a.view(u)})
	return nil
}

// GET /api/users/me: the caller, with the theme defaulting to "light".
func (a *api) me(w http.ResponseWriter, r *http.Request) error {
	p, err := web.Authenticated(a.Auth, r)
	if err != nil {
		return err
	}
	u, hash, err := a.Store.UserVersion(p.User.ID)
	if err != nil {
		return err
	}
	v := a.view(u)
	if v.Theme == "" {
		v.Theme = "light"
	}
	noStore(w)
	w.Header().Set("ETag", `"`+hash+`"`)
	web.WriteJSON(w, http.StatusOK, web.Data{Data: v})
	return nil
}

// Capabilities is the body of GET /api/users/capabilities: every resource:action the caller holds
// without a scope, and per collection what the caller may do with its entries.
type Capabilities struct {
	Capabilities map[string]bool                       `json:"capabilities"`
	Scopes       map[string]map[string]map[string]bool `json:"scopes"`
}

// GET /api/users/capabilities: what the caller may do.
func (a *api) capabilities(w http.ResponseWriter, r *http.Request) error {
	p, err := web.Authenticated(a.Auth, r)
	if err != nil {
		return err
	}
	entries := map[string]map[string]bool{}
	for _, c := range a.Store.Collections() {
		acts := map[string]bool{}
		for _, act := range content.Actions {
			acts[act] = p.Can("entries", act, c.Handle)
		}
		entries[c.Handle] = acts
	}
	caps := p.Capabilities()
	for _, res := range a.Unavailable {
		for _, act := range content.Actions {
			caps[res+":"+act] = false
		}
	}
	noStore(w)
	web.WriteJSON(w, http.StatusOK, web.Data{Data: Capabilities{
		Capabilities: caps,
		Scopes:       map[string]map[string]map[string]bool{"entries": entries},
	}})
	return nil
}

// checkRolesExist reports roles that have no role file.
func (a *api) checkRolesExist(op string, roles []string) error {
	fields := content.FieldErrors{}
	for _, h := range roles {
		if _, err := a.Store.Role(h); err != nil {
			if !content.IsNotFound(err) {
				return err
			}
			fields.Add("roles", fmt.Sprintf("Role %q does not exist", h))
		}
	}
	return fields.Err(op, "User payload is invalid")
}

// POST /api/users: create a user.
func (a *api) create(w http.ResponseWriter, r *http.Request) error {
	const op = "users.create"
	p, err := web.Require(a.Auth, r, "users", "create", "")
	if err != nil {
		return err
	}
	body, err := readJSON(w, r)
	if err != nil {
		return err
	}
	req, err := parseCreate(body)
	if err != nil {
		return err
	}
	if err := a.checkRolesExist(op, req.Roles); err != nil {
		return err
	}
	if err := a.mayAssign(op, p, req.Roles); err != nil {
		return err
	}
	if req.ID == "" {
		req.ID = uuid.NewString()
	}
	hash, err := hashPassword(op, req.Password)
	if err != nil {
		return err
	}
	roles := req.Roles
	if roles == nil {
		roles = []string{}
	}
	u := &content.User{ID: req.ID, Email: req.Email, Name: req.Name, PasswordHash: hash, Roles: roles,
		Theme: req.Theme, CreatedAt: a.Now().UTC().Format(sessions.TimeFormat)}
	if err := a.storeFor(p).CreateUser(u); err != nil {
		return err
	}
	noStore(w)
	web.WriteJSON(w, http.StatusCreated, web.Data{Data: a.view(u)})
	return nil
}

// credentialsChange reports whether an update changes what a session stands for.
func credentialsChange(before, after *content.User) bool {
	return before.Email != after.Email || before.PasswordHash != after.PasswordHash || !slices.Equal(before.Roles, after.Roles)
}

// selfServiceKeys are what users without users:edit may change about themselves.
var selfServiceKeys = []string{"email", "name", "theme", "id"}

// UpdateResponse is the body of PUT /api/users/{id}. Token and ExpiresAt are set when callers
// changed their own credentials and received a fresh session.
type UpdateResponse struct {
	Data      View   `json:"data"`
	Token     string `json:"token,omitempty"`
	ExpiresAt string `json:"expiresAt,omitempty"`
}

// PUT /api/users/{id} and PUT /api/users/me: update a user.
func (a *api) update(w http.ResponseWriter, r *http.Request) error {
	const op = "users.update"
	p, err := web.Authenticated(a.Auth, r)
	if err != nil {
		return err
	}
	id, self, err := pathID(r, p)
	if err != nil {
		return err
	}
	canEdit := p.Can("users", "edit", "")
	if !self && !canEdit {
		return p.Require("users", "edit", "")
	}
	body, err := readJSON(w, r)
	if err != nil {
		return err
	}
	req, err := parseUpdate(id, body)
	if err != nil {
		return err
	}
	if !canEdit {
		for _, k := range req.Keys {
			if !slices.Contains(selfServiceKeys, k) {
				return content.Forbiddenf(op, "Users may only update their own profile details")
			}
		}
	}
	if req.RolesSet {
		if err := a.checkRolesExist(op, req.Roles); err != nil {
			return err
		}
		if err := a.mayAssign(op, p, req.Roles); err != nil {
			return err
		}
	}
	want, err := web.IfMatch(r)
	if err != nil {
		return err
	}
	var hash string
	if req.Password != nil { // hashed before the store's lock is taken: scrypt is slow
		if hash, err = hashPassword(op, *req.Password); err != nil {
			return err
		}
	}
	// The change applies to the record current under the store's lock, so a concurrent update
	// (an administrator's demotion, a password reset) is never written over with an old copy.
	var before content.User
	u, etag, err := a.storeFor(p).UpdateUser(id, want, func(u *content.User) error {
		if err := a.mayManage(op, "change", p, u); err != nil {
			return err
		}
		before = *u
		before.Roles = slices.Clone(u.Roles)
		if req.Email != nil {
			u.Email = *req.Email
		}
		if req.Name != nil {
			u.Name = *req.Name
		}
		if req.Theme != nil {
			u.Theme = *req.Theme
		}
		if req.RolesSet {
			u.Roles = req.Roles
			if !holdsAdmin(u) {
				if err := a.keepAnAdmin(op, "remove the "+protectedRole+" role from", &before); err != nil {
					return err
				}
			}
		}
		if req.Password != nil {
			u.PasswordHash = hash
		}
		return nil
	})
	if err != nil {
		return err
	}
	resp := UpdateResponse{Data: a.view(u)}
	// Sessions end after the write: a login with the old credentials that raced the change
	// then cannot leave a session behind.
	if credentialsChange(&before, u) {
		tok, exp, err := a.revoke(w, r, p, u.ID, self)
		if err != nil {
			return err
		}
		resp.Token, resp.ExpiresAt = tok, exp
	}
	noStore(w)
	w.Header().Set("ETag", `"`+etag+`"`)
	web.WriteJSON(w, http.StatusOK, resp)
	return nil
}

// revoke ends every session of userID after its credentials changed. When callers changed their
// own, they get a fresh session, so the change does not sign them out.
func (a *api) revoke(w http.ResponseWriter, r *http.Request, p *access.Principal, userID string, self bool) (token, expiresAt string, err error) {
	if _, err := a.Sessions.RevokeUser(r.Context(), userID); err != nil {
		return "", "", err
	}
	if !self {
		return "", "", nil
	}
	tok, sess, err := a.Sessions.CreateFor(r.Context(), userID, authn.Client(r))
	if err != nil {
		return "", "", err
	}
	if p.ViaCookie {
		http.SetCookie(w, authn.SessionCookie(string(tok), sess.ExpiresAt, a.SecureCookies))
	}
	return string(tok), sess.ExpiresISO(), nil
}

// DELETE /api/users/{id} and DELETE /api/users/me: delete a user (never oneself).
func (a *api) delete(w http.ResponseWriter, r *http.Request) error {
	const op = "users.delete"
	p, err := web.Require(a.Auth, r, "users", "delete", "")
	if err != nil {
		return err
	}
	id, self, err := pathID(r, p)
	if err != nil {
		return err
	}
	if self {
		return &content.Error{Kind: content.Forbidden, Op: op, Code: "CANNOT_DELETE_SELF",
			Message: "You cannot delete your own account; ask another administrator"}
	}
	err = a.storeFor(p).DeleteUserIf(id, func(u *content.User) error {
		if err := a.mayManage(op, "delete", p, u); err != nil {
			return err
		}
		return a.keepAnAdmin(op, "delete", u)
	})
	if err != nil {
		return err
	}
	// The account is gone, so its sessions no longer authenticate anyway; removing the files
	// keeps the sessions folder honest.
	if _, err := a.Sessions.RevokeUser(r.Context(), id); err != nil {
		return err
	}
	noStore(w)
	web.WriteJSON(w, http.StatusOK, map[string]bool{"success": true})
	return nil
}
