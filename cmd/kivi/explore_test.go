package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kivi-go/kivi/report"
)

// TestHTMLFlag: --html writes the explorer page with the --json document
// in it, and the text output is unchanged.
func TestHTMLFlag(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c5.html")
	var plain, stdout, stderr bytes.Buffer
	args := []string{"verify", "--case", "c5", "--original", "--workers", "1", "--quiet"}
	run(context.Background(), args, &plain, io.Discard)
	code := run(context.Background(), append(args, "--html", path), &stdout, &stderr)
	if code != exitViolated {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if volatile.ReplaceAllString(stdout.String(), "") != volatile.ReplaceAllString(plain.String(), "") {
		t.Errorf("--html changed the text output:\n%s", stdout.String())
	}
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<script type="application/json" id="report">`, `"schemaVersion":` + itoa(report.SchemaVersion), `"mode":"topology"`, `"no_oscillation_eviction"`, `"loopStart":0`} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the page lacks %s", want)
		}
	}
	code = run(context.Background(), append(args, "--html", filepath.Join(t.TempDir(), "no", "such", "dir.html")), io.Discard, &stderr)
	if code != exitInput || !strings.Contains(stderr.String(), "--html") {
		t.Errorf("unwritable --html: exit %d, %q", code, stderr.String())
	}
}

// lineWriter hands each complete line written to it to a channel (the
// explore command prints its address while the test waits for it).
type lineWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	lines chan string
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	for {
		line, err := w.buf.ReadString('\n')
		if err != nil {
			w.buf.WriteString(line)
			return len(p), nil
		}
		select {
		case w.lines <- line:
		default:
		}
	}
}

// TestExplore: explore verifies, prints a 127.0.0.1 address, serves the
// page there until the context ends, and exits with the verdict.
func TestExplore(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &lineWriter{lines: make(chan string, 100)}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"explore", "--case", "c8", "--original", "--workers", "1", "--quiet"}, out, io.Discard)
	}()
	addr := regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+/`)
	var url string
	timeout := time.After(60 * time.Second)
	for url == "" {
		select {
		case l := <-out.lines:
			url = addr.FindString(l)
		case code := <-done:
			t.Fatalf("explore exited with %d before serving", code)
		case <-timeout:
			t.Fatal("no address printed")
		}
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`"name":"c8"`)) {
		t.Errorf("GET %s: %d, %d bytes", url, resp.StatusCode, len(body))
	}
	cancel()
	select {
	case code := <-done:
		if code != exitViolated {
			t.Errorf("exit %d, want %d", code, exitViolated)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("explore did not stop with its context")
	}
}
