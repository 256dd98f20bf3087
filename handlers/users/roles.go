package users

import (
	"fmt"
	"net/http"
	"slices"

	"cms/content"
	"cms/content/access"
	"cms/handlers/web"
)

// protectedRole cannot be changed or deleted over the API: losing it could lock every
// administrator out.
const protectedRole = access.AdminRole

// roleView is a role as the API shows it; permissions are never null.
func roleView(r *content.Role) content.Role {
	v := *r
	if v.Permissions == nil {
		v.Permissions = []content.Permission{}
	}
	return v
}

// roleHandle returns the role handle of the path; one that cannot name a role file is a 400.
func roleHandle(r *http.Request) (string, error) {
	h := r.PathValue("handle")
	if !roleRE.MatchString(h) || len(h) > maxRoleHandle {
		return "", web.BadRequest("Invalid role handle")
	}
	return h, nil
}

// GET /api/roles: every role.
func (a *api) listRoles(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "users", "view", ""); err != nil {
		return err
	}
	roles := a.Store.Roles()
	out := make([]content.Role, 0, len(roles))
	for _, role := range roles {
		out = append(out, roleView(role))
	}
	noStore(w)
	web.WriteJSON(w, http.StatusOK, web.Data{Data: out})
	return nil
}

// GET /api/roles/{handle}: one role, with an ETag.
func (a *api) getRole(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "users", "view", ""); err != nil {
		return err
	}
	h, err := roleHandle(r)
	if err != nil {
		return err
	}
	role, hash, err := a.Store.RoleVersion(h)
	if err != nil {
		return err
	}
	noStore(w)
	w.Header().Set("ETag", `"`+hash+`"`)
	web.WriteJSON(w, http.StatusOK, web.Data{Data: roleView(role)})
	return nil
}

// POST /api/roles: create a role.
func (a *api) createRole(w http.ResponseWriter, r *http.Request) error {
	const op = "users.createRole"
	p, err := web.Require(a.Auth, r, "users", "edit", "")
	if err != nil {
		return err
	}
	body, err := readJSON(w, r)
	if err != nil {
		return err
	}
	role, err := parseRole("", body)
	if err != nil {
		return err
	}
	if err := mayHandOn(op, p, fmt.Sprintf("create role %q", role.Handle), role.Permissions); err != nil {
		return err
	}
	if err := a.storeFor(p).CreateRole(role); err != nil {
		return err
	}
	noStore(w)
	web.WriteJSON(w, http.StatusCreated, web.Data{Data: roleView(role)})
	return nil
}

func protected(op, verb string) error {
	return &content.Error{Kind: content.Forbidden, Op: op, Code: "ROLE_PROTECTED",
		Message: fmt.Sprintf("The %s role cannot be %s", protectedRole, verb)}
}

// PUT /api/roles/{handle}: update a role (never admin).
func (a *api) updateRole(w http.ResponseWriter, r *http.Request) error {
	const op = "users.updateRole"
	p, err := web.Require(a.Auth, r, "users", "edit", "")
	if err != nil {
		return err
	}
	h, err := roleHandle(r)
	if err != nil {
		return err
	}
	if h == protectedRole {
		return protected(op, "changed")
	}
	body, err := readJSON(w, r)
	if err != nil {
		return err
	}
	next, err := parseRole(h, body)
	if err != nil {
		return err
	}
	what := fmt.Sprintf("change role %q", h)
	if err := mayHandOn(op, p, what, next.Permissions); err != nil {
		return err
	}
	want, err := web.IfMatch(r)
	if err != nil {
		return err
	}
	// A role may be changed only by someone who could grant it as it stands, so nobody cuts down
	// (or renames) a role that is above them. Checked on the file being replaced, under the lock.
	role, etag, err := a.storeFor(p).UpdateRole(h, want, func(cur *content.Role) error {
		if err := mayHandOn(op, p, what, cur.Permissions); err != nil {
			return err
		}
		cur.Display, cur.Permissions = next.Display, next.Permissions
		return nil
	})
	if err != nil {
		return err
	}
	noStore(w)
	w.Header().Set("ETag", `"`+etag+`"`)
	web.WriteJSON(w, http.StatusOK, web.Data{Data: roleView(role)})
	return nil
}

// RoleAssigned lists the users that still hold a role that was to be deleted.
type RoleAssigned struct {
	Users []string `json:"users"`
}

// DELETE /api/roles/{handle}: delete an unassigned role (never admin).
func (a *api) deleteRole(w http.ResponseWriter, r *http.Request) error {
	const op = "users.deleteRole"
	who, err := web.Require(a.Auth, r, "users", "delete", "")
	if err != nil {
		return err
	}
	h, err := roleHandle(r)
	if err != nil {
		return err
	}
	if h == protectedRole {
		return protected(op, "deleted")
	}
	if _, err := a.Store.Role(h); err != nil {
		return err
	}
	var holders []string
	for _, u := range a.Store.Users() {
		if slices.Contains(u.Roles, h) {
			holders = append(holders, u.ID)
		}
	}
	if len(holders) > 0 {
		return &content.Error{Kind: content.Conflict, Op: op, Code: "ROLE_ASSIGNED",
			Message: fmt.Sprintf("Role %q is assigned to %d user(s); remove it from them first", h, len(holders)),
			Details: RoleAssigned{Users: holders}}
	}
	if err := a.storeFor(who).DeleteRole(h); err != nil {
		return err
	}
	noStore(w)
	web.WriteJSON(w, http.StatusOK, map[string]bool{"success": true})
	return nil
}
