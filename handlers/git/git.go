// Package git serves git sync's status and its manual actions (docs/git.md):
//
//	GET  /api/git/status  every repository: branch, remote (credentials masked), status, counts, last error and commit
//	POST /api/git/sync    commit what is queued now and push what is pending ({"repository": id} or all)
//	POST /api/git/retry   run a repository's failed or pending work now ({"repository": id})
//
// With git sync off every endpoint answers DISABLED (409) after the permission check.
package git

import (
	"context"
	"log/slog"
	"net/http"
	"regexp"

	"cms/content"
	"cms/content/gitsync"
	"cms/handlers/web"
)

// Syncer is what the group calls: the methods of gitsync.Syncer.
type Syncer interface {
	Status() []gitsync.RepoStatus
	Sync(ctx context.Context, id string) ([]gitsync.Result, error)
	Retry(ctx context.Context, id string) (gitsync.Result, error)
}

// Deps are the inputs of the group.
type Deps struct {
	// Git is git sync; nil when git.enabled is off (or the process is read-only).
	Git Syncer
	// Auth identifies callers. When nil every request is answered 401.
	Auth web.Authenticator
	Log  *slog.Logger
}

// Prefixes are the path prefixes the group serves.
func Prefixes() []string { return []string{"/api/git", "/api/git/"} }

type api struct{ Deps }

// New builds the group's handler.
func New(d Deps) (http.Handler, error) {
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	a := &api{Deps: d}
	rt := web.NewRouter()
	rt.HandleFunc("GET /api/git/status", a.status)
	rt.HandleFunc("POST /api/git/sync", a.sync)
	rt.HandleFunc("POST /api/git/retry", a.retry)
	rt.NotFound("/api/git/")
	return rt, nil
}

// bodyLimit bounds the small JSON bodies of sync and retry.
const bodyLimit = 4 << 10

// enabled checks the permission, then that git sync is on.
func (a *api) enabled(r *http.Request, action string) error {
	if _, err := web.Require(a.Auth, r, "git", action, ""); err != nil {
		return err
	}
	if a.Git == nil {
		return &content.Error{Kind: content.Conflict, Code: "DISABLED", Op: "git", Message: "Git sync is not enabled (git.enabled)"}
	}
	return nil
}

// Status is the body of GET /api/git/status.
type Status struct {
	Repositories []gitsync.RepoStatus `json:"repositories"`
}

// GET /api/git/status: every repository git sync knows.
func (a *api) status(w http.ResponseWriter, r *http.Request) error {
	if err := a.enabled(r, "view"); err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	web.WriteJSON(w, http.StatusOK, web.Data{Data: Status{Repositories: a.Git.Status()}})
	return nil
}

// Request is the body of sync (optional) and retry.
type Request struct {
	Repository string `json:"repository"`
}

var repoID = regexp.MustCompile(`^[0-9a-f]{64}$`)

// request reads the body; an empty body of sync names no repository.
func (a *api) request(w http.ResponseWriter, r *http.Request, required bool) (string, error) {
	var in Request
	if r.ContentLength == 0 && !required {
		return "", nil // POST /api/git/sync without a body: every repository
	}
	if err := web.DecodeJSON(w, r, bodyLimit, &in); err != nil {
		return "", err
	}
	if in.Repository == "" && required {
		return "", content.InvalidFields("git", "repository is required", map[string][]string{"repository": {"Name the repository (its id from GET /api/git/status)"}})
	}
	if in.Repository != "" && !repoID.MatchString(in.Repository) {
		return "", content.InvalidFields("git", "Invalid repository id", map[string][]string{"repository": {"A repository id is 64 lower-case hex digits"}})
	}
	return in.Repository, nil
}

// SyncResult is the body of POST /api/git/sync.
type SyncResult struct {
	Results []gitsync.Result `json:"results"`
}

// POST /api/git/sync: commit what is queued now and push what is pending.
func (a *api) sync(w http.ResponseWriter, r *http.Request) error {
	if err := a.enabled(r, "edit"); err != nil {
		return err
	}
	id, err := a.request(w, r, false)
	if err != nil {
		return err
	}
	res, err := a.Git.Sync(context.WithoutCancel(r.Context()), id) // a client gone does not stop a push
	if err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusOK, web.Data{Data: SyncResult{Results: res}})
	return nil
}

// RetryResult is the body of POST /api/git/retry.
type RetryResult struct {
	Result gitsync.Result `json:"result"`
}

// POST /api/git/retry: run a repository's failed or pending work now.
func (a *api) retry(w http.ResponseWriter, r *http.Request) error {
	if err := a.enabled(r, "edit"); err != nil {
		return err
	}
	id, err := a.request(w, r, true)
	if err != nil {
		return err
	}
	res, err := a.Git.Retry(context.WithoutCancel(r.Context()), id)
	if err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusOK, web.Data{Data: RetryResult{Result: res}})
	return nil
}
