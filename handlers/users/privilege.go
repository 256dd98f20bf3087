package users

import (
	"fmt"
	"slices"
	"strings"

	"cms/content"
	"cms/content/access"
)

// Least privilege: nobody hands on a permission they do not hold. Holders of the admin role
// (which cannot be changed over the API) may grant anything; everyone else may only assign roles
// whose permissions they hold (never admin), create or change roles within their own permissions,
// and change or delete users who hold nothing they lack (never an administrator), because whoever
// sets a user's password or email can act as that user. The checks that depend on a stored user
// or role run inside the store's update, so they see the record that is written over.

// isAdmin reports whether p holds the admin role.
func isAdmin(p *access.Principal) bool {
	return slices.ContainsFunc(p.Roles, func(r *content.Role) bool { return r.Handle == protectedRole })
}

// holdsAdmin reports whether u is assigned the admin role.
func holdsAdmin(u *content.User) bool { return slices.Contains(u.Roles, protectedRole) }

// mayHandOn returns a Forbidden error naming what is missing unless p holds every permission of
// perms; what says what p tried ("assign role \"x\"").
func mayHandOn(op string, p *access.Principal, what string, perms []content.Permission) error {
	if isAdmin(p) {
		return nil
	}
	if missing := p.Missing(perms); len(missing) > 0 {
		return content.Forbiddenf(op, "You cannot %s: it grants permissions you do not hold (%s)", what, strings.Join(missing, ", "))
	}
	return nil
}

// mayAssign returns a Forbidden error unless p may give a user every role of roles. Unknown
// roles are left to checkRolesExist.
func (a *api) mayAssign(op string, p *access.Principal, roles []string) error {
	if isAdmin(p) {
		return nil
	}
	for _, h := range roles {
		if h == protectedRole {
			return content.Forbiddenf(op, "Only an administrator can assign the %s role", protectedRole)
		}
		r, err := a.Store.Role(h)
		if content.IsNotFound(err) {
			continue
		}
		if err != nil {
			return err
		}
		if err := mayHandOn(op, p, fmt.Sprintf("assign role %q", h), r.Permissions); err != nil {
			return err
		}
	}
	return nil
}

// mayManage returns a Forbidden error unless p may change (verb "change") or delete another
// user u: u must hold no permission p lacks, and only an administrator manages an administrator.
func (a *api) mayManage(op, verb string, p *access.Principal, u *content.User) error {
	if isAdmin(p) || u.ID == p.User.ID {
		return nil
	}
	if holdsAdmin(u) {
		return content.Forbiddenf(op, "Only an administrator can %s an administrator", verb)
	}
	var perms []content.Permission
	for _, r := range access.RolesFor(u, a.Store.Role) {
		perms = append(perms, r.Permissions...)
	}
	if missing := p.Missing(perms); len(missing) > 0 {
		return content.Forbiddenf(op, "You cannot %s user %q: they hold permissions you do not (%s)", verb, u.ID, strings.Join(missing, ", "))
	}
	return nil
}

// keepAnAdmin returns a Conflict error when u holds the admin role and no other user does, so
// that removing it (verb) would leave the site without an administrator.
func (a *api) keepAnAdmin(op, verb string, u *content.User) error {
	if !holdsAdmin(u) {
		return nil
	}
	for _, o := range a.Store.Users() {
		if o.ID != u.ID && holdsAdmin(o) {
			return nil
		}
	}
	return content.Conflictf(op, "Cannot %s %q: they are the last user with the %s role; give it to another user first", verb, u.ID, protectedRole)
}
