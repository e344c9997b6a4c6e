// Package browsertest drives Kivi's counterexample explorer (package
// explorer) in headless Chromium through chromedp: the pages of built-in
// cases are opened in a real browser and checked for what a person would
// see (the steps, a pod moving to its node, the cycle marker), for console
// errors and network requests, and for how fast a step change is.
//
// It is a module of its own so that the main module never depends on
// chromedp; the root's ./... does not descend into it. Run it with
//
//	cd browsertest && go test ./...
//
// It needs Chromium at /usr/bin/chromium (or KIVI_CHROMIUM) and skips,
// loudly, without it. Screenshots go to KIVI_BROWSERTEST_ARTIFACTS (or a
// temporary directory); the test prints their paths.
package browsertest
