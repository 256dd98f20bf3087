package users

import (
	"net/http"

	"cms/content"
	"cms/content/password"
	"cms/handlers/web"
)

func hashPassword(op, pw string) (string, error) {
	h, err := password.Hash(pw)
	if err != nil {
		return "", content.Internalf(op, "", err)
	}
	return h, nil
}

// PasswordResponse is the body of a successful password change. Token and ExpiresAt carry the
// fresh session of callers who changed their own password.
type PasswordResponse struct {
	Success   bool   `json:"success"`
	Token     string `json:"token,omitempty"`
	ExpiresAt string `json:"expiresAt,omitempty"`
}

// POST /api/users/{id}/password: change a password. Callers changing their own password must
// give the current one (a wrong one is a 401, in the usual envelope); changing someone else's
// needs users:edit and no current password. Every session of the user ends.
func (a *api) changePassword(w http.ResponseWriter, r *http.Request) error {
	const op = "users.password"
	p, err := web.Authenticated(a.Auth, r)
	if err != nil {
		return err
	}
	id, self, err := pathID(r, p)
	if err != nil {
		return err
	}
	if !self {
		if err := p.Require("users", "edit", ""); err != nil {
			return err
		}
	}
	body, err := readJSON(w, r)
	if err != nil {
		return err
	}
	req, err := parsePassword(body, self)
	if err != nil {
		return err
	}
	u, err := a.Store.User(id)
	if err != nil {
		return err
	}
	if self {
		got, err := a.Credentials.Validate(r.Context(), u.Email, req.Current)
		if err != nil || got.ID != u.ID {
			if err == nil || content.KindOf(err) == content.Unauthenticated {
				return content.Unauthenticatedf(op, "Current password is incorrect")
			}
			return err
		}
	} else if err := a.mayManage(op, "change", p, u); err != nil {
		return err // checked again under the store's lock; this spares the hashing
	}
	// Hashing is slow, so it happens before the store's lock; the write then changes only the
	// hash of the record current under the lock.
	hash, err := hashPassword(op, req.New)
	if err != nil {
		return err
	}
	_, _, err = a.storeFor(p).UpdateUser(id, "", func(cur *content.User) error {
		if self && cur.PasswordHash != u.PasswordHash {
			// The password changed after it was read for the check above.
			return content.Conflictf(op, "The password was changed meanwhile; sign in again and retry")
		}
		if !self {
			if err := a.mayManage(op, "change", p, cur); err != nil {
				return err
			}
		}
		cur.PasswordHash = hash
		return nil
	})
	if err != nil {
		return err
	}
	// As for PUT, sessions end after the write (see update).
	tok, exp, err := a.revoke(w, r, p, id, self)
	if err != nil {
		return err
	}
	noStore(w)
	web.WriteJSON(w, http.StatusOK, PasswordResponse{Success: true, Token: tok, ExpiresAt: exp})
	return nil
}
