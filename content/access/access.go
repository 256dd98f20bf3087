// Package access decides what an authenticated caller may do: a user's grants are the union of
// their roles' permissions. It is pure; sessions and credentials live in handlers/auth.
package access

import (
	"fmt"
	"slices"

	"cms/content"
)

// Principal is an authenticated caller.
type Principal struct {
	User      *content.User
	Roles     []*content.Role
	SessionID string // hash of the session token (never the token)
	ViaCookie bool   // the token came from the cms_session cookie (CSRF rules apply)
	ExpiresAt string
}

// Can reports whether any permission of any role grants action on resource. An unscoped grant
// applies to every scope; a scoped grant applies only when the check asks for exactly that scope
// (so a grant on entries of "blog" does not allow listing every collection).
func (p *Principal) Can(resource, action, scope string) bool {
	if p == nil {
		return false
	}
	for _, r := range p.Roles {
		for _, perm := range r.Permissions {
			if perm.Resource != resource || !slices.Contains(perm.Actions, action) {
				continue
			}
			if perm.Scope == "" || perm.Scope == scope {
				return true
			}
		}
	}
	return false
}

// Require returns a Forbidden error unless p can do action on resource (within scope).
func (p *Principal) Require(resource, action, scope string) error {
	if p.Can(resource, action, scope) {
		return nil
	}
	return &content.Error{Kind: content.Forbidden, Op: "access.Require",
		Message: fmt.Sprintf("Insufficient permissions to %s %s", action, resource)}
}

// Missing lists the grants of perms that p does not hold, as "resource:action", with " in
// scope" for a scoped grant; none means p may hand perms on without gaining anything. A scoped
// grant is held through the same scope or an unscoped grant; an unscoped one only unscoped.
func (p *Principal) Missing(perms []content.Permission) []string {
	var out []string
	for _, perm := range perms {
		for _, a := range perm.Actions {
			if p.Can(perm.Resource, a, perm.Scope) {
				continue
			}
			g := perm.Resource + ":" + a
			if perm.Scope != "" {
				g += " in " + perm.Scope
			}
			if !slices.Contains(out, g) {
				out = append(out, g)
			}
		}
	}
	return out
}

// Capabilities lists every resource:action the principal holds without a scope.
func (p *Principal) Capabilities() map[string]bool {
	out := map[string]bool{}
	for _, res := range content.Resources {
		for _, a := range content.Actions {
			out[res+":"+a] = p.Can(res, a, "")
		}
	}
	return out
}

// RolesFor loads the roles named by the user; unknown role handles are skipped (a deleted role
// simply grants nothing).
func RolesFor(u *content.User, lookup func(string) (*content.Role, error)) []*content.Role {
	out := make([]*content.Role, 0, len(u.Roles))
	for _, h := range u.Roles {
		if r, err := lookup(h); err == nil {
			out = append(out, r)
		}
	}
	return out
}
