package browsertest

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// firefoxConsoleProfile makes Firefox print the console messages of the
// pages it loads on its standard output: with no WebDriver for Firefox
// in Debian, that output is how the test sees a page's errors.
const firefoxConsoleProfile = `user_pref("devtools.console.stdout.content", true);
user_pref("browser.dom.window.dump.enabled", true);
user_pref("app.update.enabled", false);
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("toolkit.telemetry.enabled", false);
`

// firefox returns Debian's Firefox ESR, or skips loudly.
func firefox(t *testing.T) string {
	t.Helper()
	return browserPath(t, "Firefox", "KIVI_FIREFOX", "/usr/bin/firefox-esr", "firefox-esr")
}

// TestExplorerInFirefox opens the pages of C1, C5 and C8 from files in
// headless Firefox, offline, and requires that the page logs no error or
// console.error and that Firefox renders it (a screenshot is taken and
// kept). Firefox's own background services, which fail without a
// network, log about resource:// and services, never about the page's
// file:// address; a line naming the page, or a console.error of the
// page, fails the test. A page with a deliberate error shows that such
// lines are seen.
func TestExplorerInFirefox(t *testing.T) {
	path := firefox(t)
	dir := t.TempDir()
	out := artifacts(t)
	profile := filepath.Join(dir, "profile")
	if err := os.MkdirAll(profile, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(profile, "user.js"), []byte(firefoxConsoleProfile), 0o644); err != nil {
		t.Fatal(err)
	}
	load := func(page, shot string) []string {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, path, "--headless", "--no-remote", "--profile", profile, "--screenshot", shot, "file://"+page)
		cmd.Env = append(os.Environ(), "MOZ_HEADLESS=1")
		var buf bytes.Buffer
		cmd.Stdout, cmd.Stderr = &buf, &buf
		if err := cmd.Run(); err != nil {
			t.Fatalf("firefox on %s: %v\n%s", page, err, buf.String())
		}
		if st, err := os.Stat(shot); err != nil || st.Size() == 0 {
			t.Fatalf("firefox took no screenshot of %s: %v\n%s", page, err, buf.String())
		}
		var bad []string
		sc := bufio.NewScanner(&buf)
		pageErr := false
		for sc.Scan() {
			l := sc.Text()
			// console.error of the page prints `console.error: "…"`
			// (a quoted message); Firefox's services print
			// `console.error: services…` or `console.error: (…)`.
			if strings.Contains(l, "file://") || strings.HasPrefix(l, `console.error: "`) || strings.HasPrefix(l, "console.warn: \"") {
				bad = append(bad, l)
				pageErr = true
			} else if pageErr && strings.HasPrefix(l, " ") {
				bad = append(bad, l)
			} else {
				pageErr = false
			}
		}
		return bad
	}

	broken := filepath.Join(dir, "broken.html")
	if err := os.WriteFile(broken, []byte(`<!doctype html><html><body><script>console.error("planted"); missingFunction();</script></body></html>`), 0o644); err != nil {
		t.Fatal(err)
	}
	if bad := load(broken, filepath.Join(dir, "broken.png")); len(bad) < 2 {
		t.Fatalf("a page with a console.error and an exception showed %d lines: %q; the test could not see errors", len(bad), bad)
	}

	for _, name := range []string{"c1", "c5", "c8"} {
		var page bytes.Buffer
		if err := caseReport(t, name).WriteHTML(&page); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, name+".html")
		if err := os.WriteFile(file, page.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		shot := filepath.Join(out, "firefox-"+name+".png")
		if bad := load(file, shot); len(bad) > 0 {
			t.Errorf("%s: the page logged in Firefox:\n%s", name, strings.Join(bad, "\n"))
		}
		t.Logf("%s: screenshot %s", name, shot)
	}
}
