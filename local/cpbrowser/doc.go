// Package cpbrowser holds the Control Panel's browser tests: they start the whole server on a
// copy of the starter site, drive a headless Chromium through chromedp, and act as an editor
// would. The package has no code of its own; see cp_test.go. The tests skip when no Chromium is
// installed, except under CI or with CMS_REQUIRE_BROWSER=1, where a missing browser fails them.
// Screenshots of every screen go to $CMS_ARTIFACTS when set (else a temporary folder). The tests
// are built without the race detector (make test runs them in its second, plain pass): under it,
// compiling the hook module they upload takes ten times longer.
package cpbrowser
