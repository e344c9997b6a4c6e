// Package explorer renders Kivi's JSON report as one self-contained HTML
// page, the counterexample explorer: a timeline of the steps, the cluster
// after each step (zones, nodes, pods) with what changed, charts of the
// replica counts and CPU over the steps, and the violated intent.
//
// The page embeds the report unchanged (in <script type="application/json"
// id="report">) and its CSS and JavaScript inline, and forbids every
// network request in its Content-Security-Policy: it works as a file
// attached to a CI run or a bug report. The package does not import the
// report package (which imports it); it takes the report as JSON bytes.
package explorer

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"html"
	"io"
	"net/http"
	"strings"
)

// The page's parts, kept as ordinary files so that they can be edited and
// checked as HTML, CSS and JavaScript.
var (
	//go:embed page.html
	pageHTML string
	//go:embed page.css
	pageCSS string
	//go:embed page.js
	pageJS string
)

// Page returns the explorer page for a JSON report: a single report
// (kivi.JSONReport, with "intents") or a scaling search (with "setups",
// each carrying its report).
func Page(report []byte) ([]byte, error) {
	if !json.Valid(report) {
		return nil, errors.New("explorer: the report is not valid JSON")
	}
	var head struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(report, &head) // a report without a name is fine
	title := "Kivi counterexample explorer"
	if head.Name != "" {
		title += " — " + head.Name
	}
	// HTMLEscape turns <, > and & inside JSON strings into \u003c etc.:
	// the JSON stays the same document, and no "</script>" or "<!--" in
	// a name or message can end the script element early.
	var data bytes.Buffer
	json.HTMLEscape(&data, bytes.TrimSpace(report))
	// One pass over the template: a placeholder inside the report or the
	// scripts is never substituted again.
	r := strings.NewReplacer("{{TITLE}}", html.EscapeString(title), "{{CSS}}", pageCSS, "{{JS}}", pageJS,
		"{{REPORT}}", data.String())
	return []byte(r.Replace(pageHTML)), nil
}

// Write writes the explorer page for a JSON report to w.
func Write(w io.Writer, report []byte) error {
	p, err := Page(report)
	if err != nil {
		return err
	}
	_, err = w.Write(p)
	return err
}

// Handler serves a page (Page's result) at "/" and nothing else: the page
// needs no other resource, so any other path is a 404.
func Handler(page []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" && r.URL.Path != "/index.html" {
			http.NotFound(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		_, _ = w.Write(page)
	})
}
