package main

import (
	"context"
	"errors"
	"fmt"

	"cms/content"
	"cms/content/fsstore"
	"cms/content/password"
	"cms/content/sessions"
)

// cmdResetPassword sets a new password for a user who lost theirs and ends their sessions:
//
//	cms reset-password [--site DIR] EMAIL                    prompts twice (hidden on a terminal)
//	cms reset-password [--site DIR] --password-stdin EMAIL   the first line of standard input
//
// The password rules are the API's (password.CheckPolicy).
func cmdResetPassword(ctx context.Context, e env, args []string) error {
	fl := newFlags("reset-password", e)
	site := fl.String("site", "", "site folder (default $CMS_SITE_DIR or .)")
	pwStdin := fl.Bool("password-stdin", false, "read the new password from the first line of standard input, without prompts")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() != 1 {
		return errors.New("give the user's email, and only that, as the argument (see cms reset-password -h)")
	}
	email := fsstore.NormalizeEmail(fl.Arg(0))
	cfg, st, err := openSite(ctx, e, *site, false)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := st.UserByEmail(email)
	if content.IsNotFound(err) {
		return fmt.Errorf("no user with email %s in %s", email, cfg.SiteDir)
	} else if err != nil {
		return err
	}
	pw, err := newPrompter(e).password(*pwStdin)
	if err != nil {
		return err
	}
	hash, err := password.Hash(pw)
	if err != nil {
		return err
	}
	if _, _, err := st.UpdateUser(u.ID, "", func(cur *content.User) error {
		cur.PasswordHash = hash
		return nil
	}); err != nil {
		return err
	}
	// As the API does after a password change: whoever held a session must sign in again.
	ss, err := sessions.Open(sessions.Options{Root: st.Root(), Dir: cfg.Auth.SessionsDir, SweepInterval: -1})
	if err != nil {
		return fmt.Errorf("password changed, but sessions could not be ended: %w", err)
	}
	defer ss.Close()
	n, err := ss.RevokeUser(ctx, u.ID)
	if err != nil {
		return fmt.Errorf("password changed, but sessions could not be ended: %w", err)
	}
	fmt.Fprintf(e.stdout, "Password reset for %s (user %s); %d session(s) ended.\n", u.Email, u.ID, n)
	return nil
}
