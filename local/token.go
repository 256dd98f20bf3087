package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"cms/content"
	"cms/content/access"
	"cms/content/sessions"
)

const tokenUsage = "usage: cms token create [--site DIR] --name NAME --role ROLE [--expires 90d] [--user ID] | cms token list [--site DIR] | cms token revoke [--site DIR] ID"

// cmdToken manages API tokens offline (CI set-up, a lost CP):
//
//	cms token create --name N --role R [--expires 90d] [--user ID]   prints the token, once
//	cms token list                                                   id, name, role, dates, last use
//	cms token revoke ID                                              removes it at once
//
// Whoever runs the CLI can read the site folder, so a token created here is bound to no user
// unless --user names one: it then never does more than that user can.
func cmdToken(ctx context.Context, e env, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 {
			fl := newFlags("token", e)
			fl.String("site", "", "site folder (default $CMS_SITE_DIR or .)")
			if err := fl.Parse(args); err != nil {
				return err
			}
		}
		fmt.Fprintln(e.stderr, tokenUsage)
		return exitError(2)
	}
	sub, args := args[0], args[1:]
	fl := newFlags("token "+sub, e)
	site := fl.String("site", "", "site folder (default $CMS_SITE_DIR or .)")
	var name, role, expires, user *string
	if sub == "create" {
		name = fl.String("name", "", "what the token is for, e.g. \"Site build\" (required)")
		role = fl.String("role", "", "the role the token acts with (required)")
		expires = fl.String("expires", "90d", "lifetime: days (90d), hours (12h) or minutes (30m); at most 366d")
		user = fl.String("user", "", "bind the token to this user's permissions (optional)")
	}
	if err := fl.Parse(args); err != nil {
		return err
	}
	switch sub {
	case "create", "list":
		if fl.NArg() != 0 {
			fmt.Fprintln(e.stderr, tokenUsage)
			return exitError(2)
		}
	case "revoke":
		if fl.NArg() != 1 {
			fmt.Fprintln(e.stderr, tokenUsage)
			return exitError(2)
		}
	default:
		fmt.Fprintln(e.stderr, tokenUsage)
		return fmt.Errorf("unknown token command %q", sub)
	}
	cfg, st, err := openSite(ctx, e, *site, sub == "list")
	if err != nil {
		return err
	}
	defer st.Close()
	ss, err := sessions.Open(sessions.Options{Root: st.Root(), Dir: cfg.Auth.SessionsDir, SweepInterval: -1, ReadOnly: sub == "list"})
	if err != nil {
		return err
	}
	defer ss.Close()
	switch sub {
	case "create":
		if *name == "" || *role == "" {
			return fmt.Errorf("--name and --role are required (%s)", tokenUsage)
		}
		r, err := st.Role(*role)
		if content.IsNotFound(err) {
			var have []string
			for _, r := range st.Roles() {
				have = append(have, r.Handle)
			}
			return fmt.Errorf("no role %q in %s (roles: %s)", *role, cfg.SiteDir, strings.Join(have, ", "))
		} else if err != nil {
			return err
		}
		ttl, err := sessions.ParseLifetime(*expires)
		if err != nil {
			return fmt.Errorf("--expires: %w", err)
		}
		if *user != "" {
			u, err := st.User(*user)
			if err != nil {
				return fmt.Errorf("--user: %w", err)
			}
			p := &access.Principal{User: u, Roles: access.RolesFor(u, st.Role)}
			if missing := p.MissingForRole(r); len(missing) > 0 {
				return fmt.Errorf("user %s cannot hand on role %q: they lack %s", u.ID, r.Handle, strings.Join(missing, ", "))
			}
		}
		tok, rec, err := ss.CreateAPIToken(ctx, *name, r.Handle, *user, ttl)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "API token %s (%q, role %s) expires %s. It is shown once; store it now:\n", rec.ID, rec.Name, rec.Role, rec.ExpiresAt)
		fmt.Fprintln(e.stdout, tok)
	case "list":
		list, err := ss.APITokens()
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tROLE\tUSER\tCREATED\tEXPIRES\tLAST USED")
		for _, t := range list {
			exp := t.ExpiresAt
			if t.Expired(time.Now()) {
				exp += " (expired)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", t.ID, t.Name, t.Role, or(t.CreatedBy, "-"), t.CreatedAt, exp, or(t.LastUsedAt, "never"))
		}
		return tw.Flush()
	case "revoke":
		rec, err := ss.RevokeAPIToken(ctx, fl.Arg(0))
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "API token %s (%q) revoked.\n", rec.ID, rec.Name)
	}
	return nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
