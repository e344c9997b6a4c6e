package explorer

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// hostile is a report whose strings try to break out of the script
// element and to be substituted as placeholders.
const hostile = `{"schemaVersion":1,"name":"a</script><script>alert(1)</script>","verdict":"violated",
 "intents":[{"name":"x","verdict":"violated","explanation":"<!-- {{JS}} {{REPORT}} & \u2028",
 "trace":{"initial":{"nodes":[],"pods":[],"deployments":[]},"steps":[],"loopStart":-1}}]}`

// embedded extracts the JSON document of a page.
func embedded(t *testing.T, page []byte) []byte {
	t.Helper()
	const open = `<script type="application/json" id="report">`
	i := bytes.Index(page, []byte(open))
	if i < 0 {
		t.Fatal("no embedded report")
	}
	rest := page[i+len(open):]
	j := bytes.Index(rest, []byte("</script>"))
	if j < 0 {
		t.Fatal("the report's script element does not end")
	}
	return rest[:j]
}

func TestPageEmbedsTheReport(t *testing.T) {
	page, err := Page([]byte(hostile))
	if err != nil {
		t.Fatal(err)
	}
	var got, want any
	if err := json.Unmarshal(embedded(t, page), &got); err != nil {
		t.Fatalf("embedded report does not parse: %v", err)
	}
	if err := json.Unmarshal([]byte(hostile), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("embedded report differs:\n got %v\nwant %v", got, want)
	}
	// The placeholders of the template are all filled, once (the report's
	// own "{{JS}}" and "{{REPORT}}" stay as they are).
	rest := bytes.Replace(page, embedded(t, page), nil, 1)
	for _, ph := range []string{"{{CSS}}", "{{JS}}", "{{REPORT}}", "{{TITLE}}"} {
		if bytes.Contains(rest, []byte(ph)) {
			t.Errorf("placeholder %s left in the page", ph)
		}
	}
	if n := bytes.Count(page, []byte("'use strict'")); n != 1 {
		t.Errorf("the script is in the page %d times, want once", n)
	}
	if !bytes.Contains(page, []byte("<title>Kivi counterexample explorer — a&lt;/script&gt;")) {
		t.Error("the title is not the escaped report name")
	}
}

// external matches what would make the page load something: a URL with a
// scheme or a protocol-relative one in src/href/url(), an @import, or a
// script API that fetches.
var external = regexp.MustCompile(`(?i)https?://|(src|href|action)\s*=\s*["']?\s*//|url\(|@import|\bfetch\(|XMLHttpRequest|WebSocket|EventSource|sendBeacon`)

func TestPageIsSelfContained(t *testing.T) {
	page, err := Page([]byte(`{"name":"c","intents":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	if m := external.FindAll(page, -1); len(m) > 0 {
		t.Errorf("the page refers to external resources: %q", m)
	}
	// Every src= or href= is a data: URL (the empty favicon, which keeps
	// the browser from asking the server for /favicon.ico).
	for _, m := range regexp.MustCompile(`(?i)\b(src|href)\s*=\s*"([^"]*)"`).FindAllSubmatch(page, -1) {
		if !bytes.HasPrefix(m[2], []byte("data:")) {
			t.Errorf("%s=%q is not inline", m[1], m[2])
		}
	}
	if !bytes.Contains(page, []byte(`Content-Security-Policy" content="default-src 'none'`)) {
		t.Error("no Content-Security-Policy forbidding network access")
	}
	// Small enough to attach to a CI run: the page without a report.
	if len(page) > 48<<10 {
		t.Errorf("the empty page is %d bytes, want at most 48 KiB", len(page))
	}
}

func TestPageRejectsInvalidJSON(t *testing.T) {
	if _, err := Page([]byte(`{"name":`)); err == nil {
		t.Error("no error for invalid JSON")
	}
}

func TestHandler(t *testing.T) {
	page, err := Page([]byte(`{"name":"c"}`))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Handler(page))
	defer srv.Close()
	for path, want := range map[string]int{"/": 200, "/index.html": 200, "/favicon.ico": 404, "/x.js": 404} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		var body bytes.Buffer
		_, _ = body.ReadFrom(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s: %d, want %d", path, resp.StatusCode, want)
		}
		if want == 200 && (!bytes.Equal(body.Bytes(), page) || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html")) {
			t.Errorf("GET %s: not the page (%s)", path, resp.Header.Get("Content-Type"))
		}
	}
}
