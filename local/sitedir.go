package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"cms/runtime/config"
)

// requireSite refuses a folder that holds none of cms.config.yaml, the content folder and the
// resources folder: a command run from the wrong directory, or given a mistyped folder, says so
// rather than auditing an empty site as flawless or writing users/ and .sessions/ into it.
// flag is the command's flag that names the site folder.
func requireSite(cfg config.Config, flag string) error {
	hint := fmt.Sprintf("name the site with %s DIR or CMS_SITE_DIR; cms init creates one", flag)
	fi, err := os.Stat(cfg.SiteDir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: no such folder (%s)", cfg.SiteDir, hint)
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("%s is not a site folder but a file (%s)", cfg.SiteDir, hint)
	}
	for _, p := range []string{config.FileName, cfg.ContentPath, cfg.ResourcesPath} {
		if !filepath.IsAbs(p) {
			p = filepath.Join(cfg.SiteDir, p)
		}
		if _, err := os.Stat(p); err == nil {
			return nil
		}
	}
	return fmt.Errorf("%s is not a site folder: it has no %s, %s/ or %s/ (%s)", cfg.SiteDir, config.FileName, cfg.ContentPath, cfg.ResourcesPath, hint)
}
