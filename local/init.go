package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"cms/content"
	"cms/content/fsstore"
	"cms/content/password"
	"cms/local/starter"
)

func cmdInit(ctx context.Context, e env, args []string) error {
	fl := newFlags("init", e)
	site := fl.String("site", ".dev-site", "folder to create")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if err := initSite(ctx, e, *site); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Serve it: cms serve --site %s (the website at /, the Control Panel at /cp).\n", *site)
	return nil
}

func cmdDev(ctx context.Context, e env, args []string) error {
	fl := newFlags("dev", e)
	site := fl.String("site", ".dev-site", "working folder for the starter site (git-ignored)")
	addr := fl.String("addr", "", "listen address HOST:PORT (default :$PORT, else 127.0.0.1:3000 in development, :3000 in production)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(*site, "content")); errors.Is(err, fs.ErrNotExist) {
		if err := initSite(ctx, e, *site); err != nil {
			return err
		}
	} else {
		// The password was shown once, on the first run.
		fmt.Fprintf(e.stdout, "Using the site in %s. Sign in with the admin login printed when it was created;\n"+
			"lost it? cms reset-password --site %s %s (or delete %s to start again).\n", *site, *site, adminEmail(e), *site)
	}
	return serveSite(ctx, e, *site, *addr, e.ready)
}

// adminEmail is the email of the admin user init creates.
func adminEmail(e env) string {
	if email := e.getenv("CMS_ADMIN_EMAIL"); email != "" {
		return email
	}
	return "admin@example.com"
}

// initSite copies the starter site and creates the admin user, printing its password once.
func initSite(ctx context.Context, e env, dir string) error {
	if err := starter.CopyTo(dir); err != nil {
		return fmt.Errorf("create starter site: %w", err)
	}
	pw := e.getenv("CMS_ADMIN_PASSWORD")
	generated := pw == ""
	if generated {
		b := make([]byte, 18)
		if _, err := rand.Read(b); err != nil {
			return err
		}
		pw = base64.RawURLEncoding.EncodeToString(b)
	} else if msg := password.CheckPolicy(pw); msg != "" {
		return fmt.Errorf("CMS_ADMIN_PASSWORD: %s", msg)
	}
	email := adminEmail(e)
	hash, err := password.Hash(pw)
	if err != nil {
		return err
	}
	st, err := fsstore.Open(ctx, fsstore.Options{Dir: dir, Watch: fsstore.WatchNone, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		return err
	}
	defer st.Close()
	u := &content.User{ID: "admin", Email: email, Name: "Administrator", PasswordHash: hash, Roles: []string{"admin"},
		CreatedAt: time.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00")}
	if err := st.CreateUser(u); err != nil {
		return fmt.Errorf("create admin user: %w", err)
	}
	fmt.Fprintf(e.stdout, "Created the starter site in %s (a plain folder; to keep its history: cd %s && git init).\n", dir, dir)
	if generated {
		fmt.Fprintf(e.stdout, "Admin login: %s / %s   (shown once; set CMS_ADMIN_PASSWORD to choose it)\n", email, pw)
	} else {
		fmt.Fprintf(e.stdout, "Admin login: %s with the password from CMS_ADMIN_PASSWORD\n", email)
	}
	return nil
}
