package auth

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"cms/content"
	"cms/handlers/authn"
	"cms/handlers/web"
)

// LoginResponse is the body of a successful login.
type LoginResponse struct {
	Token     string           `json:"token"`
	ExpiresAt string           `json:"expiresAt"`
	User      content.UserView `json:"user"`
}

// parseLogin reads {"email","password"} from a JSON body: malformed JSON is a 400, anything but
// two non-empty strings a 422.
func parseLogin(body []byte) (email, pw string, err error) {
	const op = "auth.login"
	if len(strings.TrimSpace(string(body))) == 0 {
		return "", "", web.BadRequest("Request body is empty; expected a JSON object")
	}
	if !json.Valid(body) {
		return "", "", web.BadRequest("Request body is not valid JSON")
	}
	var in struct {
		Email    any `json:"email"`
		Password any `json:"password"`
	}
	_ = json.Unmarshal(body, &in) // a non-object leaves both nil: reported below
	email, ok1 := in.Email.(string)
	pw, ok2 := in.Password.(string)
	email = strings.TrimSpace(email)
	if !ok1 || !ok2 || email == "" || pw == "" {
		fields := content.FieldErrors{}
		if !ok1 || email == "" {
			fields.Add("email", "Email is required")
		}
		if !ok2 || pw == "" {
			fields.Add("password", "Password is required")
		}
		return "", "", fields.Err(op, "Email and password are required")
	}
	return email, pw, nil
}

// POST /api/auth/login: check the credentials and start a session.
func (a *api) login(w http.ResponseWriter, r *http.Request) error {
	// Required, not just checked when present: a login CSRF (signing the victim into the
	// attacker's account) would otherwise need no preflight.
	if err := web.RequireJSON(r); err != nil {
		return err
	}
	body, err := web.ReadBody(w, r, maxLoginBody)
	if err != nil {
		return err
	}
	email, pw, err := parseLogin(body)
	if err != nil {
		return err
	}
	u, err := a.checkPassword(r.Context(), strings.ToLower(email), pw, web.ClientAddress(r))
	if err != nil {
		return err
	}
	tok, sess, err := a.Sessions.CreateFor(r.Context(), u.ID, authn.Client(r))
	if err != nil {
		return err
	}
	http.SetCookie(w, authn.SessionCookie(string(tok), sess.ExpiresAt, a.SecureCookies))
	w.Header().Set("Cache-Control", "no-store")
	web.WriteJSON(w, http.StatusOK, LoginResponse{
		Token:     string(tok),
		ExpiresAt: sess.ExpiresISO(),
		User:      u.View(sess.CreatedAt),
	})
	return nil
}

// checkPassword validates the credentials when the limiter lets the attempt go, and tells the
// limiter the outcome, also when the driver panics.
func (a *api) checkPassword(ctx context.Context, email, pw, address string) (*content.User, error) {
	t, err := a.limiter.begin(ctx, email, address)
	if err != nil {
		return nil, err
	}
	o := aborted
	defer func() { a.limiter.done(t, o) }()
	u, err := a.Credentials.Validate(ctx, email, pw)
	switch {
	case err == nil:
		o = succeeded
		return u, nil
	case content.KindOf(err) == content.Unauthenticated:
		o = failed
		// Whatever the driver said, unknown email and wrong password read the same.
		return nil, content.Unauthenticatedf("auth.login", "Invalid credentials")
	}
	return nil, err
}

// POST /api/auth/logout: end the current session and clear the cookie.
func (a *api) logout(w http.ResponseWriter, r *http.Request) error {
	// Authenticated applies the same-origin rule to cookie sessions before anything changes.
	p, err := web.Authenticated(a.Authenticator, r)
	if err != nil {
		return err
	}
	if p.TokenID != "" {
		// Ending nothing while answering success would leave the caller believing it revoked it.
		return web.BadRequest("An API token is not a session: revoke it with DELETE /api/tokens/%s", p.TokenID)
	}
	tok, _ := authn.TokenFrom(r)
	if err := a.Sessions.Destroy(r.Context(), tok); err != nil {
		return err
	}
	http.SetCookie(w, authn.ClearCookie(a.SecureCookies))
	w.Header().Set("Cache-Control", "no-store")
	web.WriteJSON(w, http.StatusOK, map[string]bool{"success": true})
	return nil
}

// ValidateResponse is the body of a successful GET /api/auth/validate.
type ValidateResponse struct {
	Valid  bool   `json:"valid"`
	UserID string `json:"userId"`
}

// GET /api/auth/validate: whether the caller's session is live.
func (a *api) validate(w http.ResponseWriter, r *http.Request) error {
	const op = "auth.validate"
	if tok, _ := authn.TokenFrom(r); tok == "" {
		return content.Unauthenticatedf(op, "No token")
	}
	p, err := a.Authenticator.Authenticate(r)
	if err != nil {
		if content.KindOf(err) == content.Unauthenticated {
			return content.Unauthenticatedf(op, "Invalid session")
		}
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	web.WriteJSON(w, http.StatusOK, ValidateResponse{Valid: true, UserID: p.User.ID})
	return nil
}
