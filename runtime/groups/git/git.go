// Package git wires the git group (handlers/git): git sync's status and manual actions. It is a
// writer: sync and retry commit and push from the site folder.
package git

import (
	"net/http"

	"cms/handlers/git"
	"cms/runtime/config"
	"cms/runtime/wire"
)

// Group describes the git group for the runners.
func Group() wire.Group {
	return wire.Group{Name: "git", Prefixes: Prefixes, Writer: true, Build: Build}
}

// Prefixes are the paths the group serves.
func Prefixes(config.Config) []string { return git.Prefixes() }

// Build builds the git group; with git sync off it answers DISABLED.
func Build(s *wire.Services) (http.Handler, error) {
	d := git.Deps{Auth: s.Auth, Log: s.Log.With("group", "git")}
	if s.Git != nil { // a nil *gitsync.Syncer must stay a nil interface
		d.Git = s.Git
	}
	return git.New(d)
}
