package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A command pointed at a folder that is no site (run from the wrong directory, a mistyped
// --site) says so, naming the flag that picks the site, instead of auditing an empty site as
// flawless or writing users/ and .sessions/ into that folder.
func TestCommandsRefuseAFolderThatIsNoSite(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	missing := filepath.Join(t.TempDir(), "nope")
	for _, dir := range []string{empty, missing} {
		for _, args := range [][]string{
			{"check", "--site", dir},
			{"seo", "report", "--dir", dir},
			{"snapshot", "--site", dir},
			{"generate", "--site", dir, "--check"},
			{"token", "list", "--site", dir},
			{"token", "create", "--site", dir, "--name", "x", "--role", "admin"},
			{"hooks", "list", "--site", dir},
			{"cache", "clear", "--site", dir},
			{"cache", "warm", "--site", dir},
			{"git", "status", "--site", dir},
			{"make-user", "--site", dir, "--email", "x@example.com", "--name", "X", "--roles", "admin", "--password-stdin"},
		} {
			out, err := runCmd(t, nil, args...)
			flag := "--site"
			if args[0] == "seo" {
				flag = "--dir"
			}
			if err == nil {
				t.Errorf("cms %s succeeded\n%s", strings.Join(args, " "), out)
				continue
			}
			msg := out + err.Error() // seo report prints its own message and exits 1
			if !strings.Contains(msg, "not a site folder") && !strings.Contains(msg, "no such folder") || !strings.Contains(msg, flag+" DIR") {
				t.Errorf("cms %s: %s\nwant it to say %s is no site and name %s", strings.Join(args, " "), msg, dir, flag)
			}
		}
	}
	if ents, _ := os.ReadDir(empty); len(ents) != 0 {
		t.Errorf("commands wrote into a folder that is no site: %v", ents)
	}
	// A folder with only a configuration file, or only content, is a site.
	cfgOnly := t.TempDir()
	if err := os.WriteFile(filepath.Join(cfgOnly, "cms.config.yaml"), []byte("watch: none\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := runCmd(t, nil, "check", "--site", cfgOnly); err != nil {
		t.Errorf("check on a site with only cms.config.yaml: %v\n%s", err, out)
	}
}
