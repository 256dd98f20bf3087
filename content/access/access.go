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
	// TokenID is the public id of the API token the caller used; "" for a session. Such a
	// caller's User is not a person: its ID is "token:" + TokenID, so no self-service rule
	// (own profile, own password) ever applies to a token.
	TokenID string
}

// AdminRole is the role that only an administrator may hand on (see MissingForRole).
const AdminRole = "admin"

// HasRole reports whether p holds the role with handle h.
func (p *Principal) HasRole(h string) bool {
	return p != nil && slices.ContainsFunc(p.Roles, func(r *content.Role) bool { return r.Handle == h })
}

// MissingForRole lists what p lacks to let someone act with role r: each of its grants p does
// not hold, and the admin role itself when r is it and p does not hold it (an administrator's
// powers go beyond its grants). None means r can do nothing p cannot.
func (p *Principal) MissingForRole(r *content.Role) []string {
	missing := p.Missing(r.Permissions)
	if r.Handle == AdminRole && !p.HasRole(AdminRole) {
		missing = append(missing, "the "+AdminRole+" role")
	}
	return missing
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

// SeesDrafts reports whether p may read the draft entries of a collection. It is the one rule
// for drafts, shared by the Control Panel API and GraphQL: whoever may view the collection's
// entries sees its drafts (view means read, and a draft is content like any other). Only the
// public API, which has no principal, never shows a draft.
func (p *Principal) SeesDrafts(collection string) bool {
	return p.Can("entries", "view", collection)
}

// RequireEntryChange returns a Forbidden error unless p may change (action "edit": any update,
// rename or unpublish) or delete (action "delete") the entry e as it stands. A published entry
// is live, and there are no revisions that could hold a change until someone publishes it, so
// changing or deleting one needs entries:publish on its collection besides the action itself.
// Drafts need only the action, which the caller has checked already.
func (p *Principal) RequireEntryChange(e *content.Entry, action string) error {
	if !e.Published() || p.Can("entries", "publish", e.Collection) {
		return nil
	}
	verb := "Changing"
	if action == "delete" {
		verb = "Deleting"
	}
	return &content.Error{Kind: content.Forbidden, Op: "access.RequireEntryChange",
		Message: verb + " a published entry needs the publish permission"}
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
