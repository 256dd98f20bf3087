package site_test

import (
	"testing"

	"cms/handlers/site"
	"cms/runtime/config"
)

// The configuration's default policy is the handler's (config cannot import handlers).
func TestDefaultCSP(t *testing.T) {
	if got := config.Default().Pages.ContentSecurityPolicy; got != site.DefaultCSP {
		t.Errorf("config default %q\nhandler default %q", got, site.DefaultCSP)
	}
}
