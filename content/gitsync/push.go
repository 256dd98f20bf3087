package gitsync

import (
	"context"
	"errors"
	"regexp"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
)

// push sends branch to target (a branch name; "" = the same name) on remote. It never forces:
// a remote that moved ahead rejects the push, and the commit waits here until someone
// reconciles the two histories.
func (g *gitRepo) push(ctx context.Context, remote string, branch plumbing.ReferenceName, target string) error {
	dst := branch
	if target != "" {
		dst = plumbing.NewBranchReferenceName(target)
	}
	err := g.r.PushContext(ctx, &git.PushOptions{
		RemoteName: remote,
		RefSpecs:   []config.RefSpec{config.RefSpec(branch.String() + ":" + dst.String())},
	})
	if errors.Is(err, git.NoErrAlreadyUpToDate) {
		return nil
	}
	return err
}

// remoteURL returns the first URL of remote, masked; "" when there is no such remote.
func (g *gitRepo) remoteURL(remote string) string {
	r, err := g.r.Remote(remote)
	if err != nil || len(r.Config().URLs) == 0 {
		return ""
	}
	return mask(r.Config().URLs[0])
}

// userinfo matches the credentials of a URL (https://user:token@host/...).
var userinfo = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.\-]*://)[^/\s@]*@`)

// mask hides the credentials of every URL in s: what git sync shows, stores or logs goes
// through it.
func mask(s string) string { return userinfo.ReplaceAllString(s, "${1}***@") }
