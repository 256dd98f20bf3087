package users

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"cms/content"
	"cms/content/sessions"
	"cms/handlers/web"
)

// Tokens is the API token store ([sessions.Store]).
type Tokens interface {
	CreateAPIToken(ctx context.Context, name, role, createdBy string, ttl time.Duration) (string, sessions.APIToken, error)
	APITokens() ([]sessions.APIToken, error)
	RevokeAPIToken(ctx context.Context, id string) (sessions.APIToken, error)
}

// TokenView is an API token as the API shows it: never the hash. Token is set once, in the
// response that creates it.
type TokenView struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Role       string `json:"role"`
	CreatedBy  string `json:"createdBy,omitempty"`
	CreatedAt  string `json:"createdAt"`
	ExpiresAt  string `json:"expiresAt"`
	LastUsedAt string `json:"lastUsedAt,omitempty"`
	Expired    bool   `json:"expired"`
	Token      string `json:"token,omitempty"`
}

func (a *api) tokenView(t sessions.APIToken) TokenView {
	return TokenView{ID: t.ID, Name: t.Name, Role: t.Role, CreatedBy: t.CreatedBy, CreatedAt: t.CreatedAt,
		ExpiresAt: t.ExpiresAt, LastUsedAt: t.LastUsedAt, Expired: t.Expired(a.Now())}
}

// GET /api/tokens: every API token, without secrets.
func (a *api) listTokens(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "tokens", "view", ""); err != nil {
		return err
	}
	list, err := a.Tokens.APITokens()
	if err != nil {
		return err
	}
	out := make([]TokenView, 0, len(list))
	for _, t := range list {
		out = append(out, a.tokenView(t))
	}
	noStore(w)
	web.WriteJSON(w, http.StatusOK, web.Data{Data: out})
	return nil
}

// POST /api/tokens {name, role, expiresIn?}: a new token acting with role, which the caller must
// hold in full; the token is in this response only.
func (a *api) createToken(w http.ResponseWriter, r *http.Request) error {
	const op = "users.createToken"
	p, err := web.Require(a.Auth, r, "tokens", "create", "")
	if err != nil {
		return err
	}
	if p.TokenID != "" {
		return content.Forbiddenf(op, "An API token cannot create API tokens; sign in as a user")
	}
	body, err := readJSON(w, r)
	if err != nil {
		return err
	}
	m, err := decodeObject(op, body)
	if err != nil {
		return err
	}
	f := newFieldReader(m)
	name, _ := f.str("name")
	roleH, _ := f.str("role")
	expires, _ := f.str("expiresIn")
	f.unknown()
	ttl, lerr := sessions.ParseLifetime(expires)
	if lerr != nil {
		f.errs.Add("expiresIn", strings.ToUpper(lerr.Error()[:1])+lerr.Error()[1:])
	}
	if strings.TrimSpace(name) == "" {
		f.errs.Add("name", "Name is required")
	}
	var role *content.Role
	if roleH == "" {
		f.errs.Add("role", "Role is required")
	} else if role, err = a.Store.Role(roleH); content.IsNotFound(err) {
		f.errs.Add("role", fmt.Sprintf("Role %q does not exist", roleH))
	} else if err != nil {
		return err
	}
	if err := f.errs.Err(op, "API token is invalid"); err != nil {
		return err
	}
	if missing := p.MissingForRole(role); len(missing) > 0 {
		return content.Forbiddenf(op, "You cannot create a token for role %q: it holds permissions you do not (%s)", role.Handle, strings.Join(missing, ", "))
	}
	tok, rec, err := a.Tokens.CreateAPIToken(r.Context(), name, role.Handle, p.User.ID, ttl)
	if err != nil {
		return err
	}
	a.Log.Info("API token created", "token_id", rec.ID, "name", rec.Name, "role", rec.Role, "by", p.User.ID)
	v := a.tokenView(rec)
	v.Token = tok
	noStore(w)
	web.WriteJSON(w, http.StatusCreated, web.Data{Data: v})
	return nil
}

// DELETE /api/tokens/{id}: revoke a token, at once.
func (a *api) revokeToken(w http.ResponseWriter, r *http.Request) error {
	p, err := web.Require(a.Auth, r, "tokens", "delete", "")
	if err != nil {
		return err
	}
	id := r.PathValue("id")
	if len(id) != 16 || strings.Trim(id, "0123456789abcdef") != "" {
		return web.BadRequest("Invalid API token id")
	}
	rec, err := a.Tokens.RevokeAPIToken(r.Context(), id)
	if err != nil {
		return err
	}
	a.Log.Info("API token revoked", "token_id", rec.ID, "name", rec.Name, "by", p.User.ID)
	noStore(w)
	web.WriteJSON(w, http.StatusOK, map[string]bool{"success": true})
	return nil
}
