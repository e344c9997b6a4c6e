package browsertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/report"
)

// maxStepChange is the acceptance bound for one step change in the
// browser (issue #20).
const maxStepChange = 50 * time.Millisecond

// chromium returns the browser to drive, or skips the test loudly: a
// silent skip would read as a pass in CI.
func chromium(t *testing.T) string {
	t.Helper()
	return browserPath(t, "Chromium", "KIVI_CHROMIUM", "/usr/bin/chromium", "chromium")
}

// browserPath returns the browser binary named by env, else def, or
// skips the test with a message on stderr that CI logs show.
func browserPath(t *testing.T, name, env, def, pkg string) string {
	t.Helper()
	path := os.Getenv(env)
	if path == "" {
		path = def
	}
	if _, err := os.Stat(path); err != nil {
		msg := fmt.Sprintf("!!! %s TEST SKIPPED: no %s at %s (%v). Install it (apt-get install -y %s) or set %s. !!!",
			strings.ToUpper(name), name, path, err, pkg, env)
		fmt.Fprintln(os.Stderr, msg)
		t.Skip(msg)
	}
	return path
}

// artifacts is where screenshots go.
func artifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("KIVI_BROWSERTEST_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// browser starts headless Chromium with a fresh profile and no network
// features of its own, and returns its context.
func browser(t *testing.T, path string) context.Context {
	t.Helper()
	profile, err := os.MkdirTemp("", "kivi-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Chromium's children may still write into the profile for a
		// moment after the browser stops.
		for range 50 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1400, 1000),
	)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	bctx, cancelBrowser := chromedp.NewContext(alloc)
	t.Cleanup(cancelBrowser)
	// Start the browser now, so that its start-up is not counted in a page.
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return bctx
}

// pages serves explorer pages by path on 127.0.0.1 and records every
// request the browser makes.
type pages struct {
	mu       sync.Mutex
	byPath   map[string][]byte
	requests []string
}

func (p *pages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.requests = append(p.requests, r.URL.Path)
	page, ok := p.byPath[r.URL.Path]
	p.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(page)
}

// tabEvents collects what must not happen while a page is open.
type tabEvents struct {
	mu       sync.Mutex
	errors   []string // console errors, exceptions, browser log errors
	requests []string // every URL the page requested
}

func (e *tabEvents) add(ev any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range ev.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			e.errors = append(e.errors, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " ")))
		}
	case *runtime.EventExceptionThrown:
		e.errors = append(e.errors, (&chromedp.ExceptionError{ExceptionDetails: ev.ExceptionDetails}).Error())
	case *log.EventEntryAdded:
		// The browser's own messages: a blocked resource or a
		// Content-Security-Policy violation lands here.
		if ev.Entry.Level == log.EntryLevelError {
			e.errors = append(e.errors, fmt.Sprintf("log %s: %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
		}
	case *network.EventRequestWillBeSent:
		e.requests = append(e.requests, ev.Request.URL)
	}
}

// open opens url in a new tab and returns the tab and its event record.
func open(t *testing.T, bctx context.Context, url string) (context.Context, *tabEvents) {
	t.Helper()
	tab, cancel := chromedp.NewContext(bctx)
	t.Cleanup(cancel)
	ev := &tabEvents{}
	if err := chromedp.Do(tab); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Listen(tab, ev.add); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS("#timeline"))); err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	return tab, ev
}

// eval runs a script in the tab and decodes its result.
func eval[T any](t *testing.T, tab context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(tab, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// press sends real key events (Input.dispatchKeyEvent) to the page.
func press(t *testing.T, tab context.Context, key string, times int) {
	t.Helper()
	for range times {
		if err := chromedp.Do(tab, chromedp.KeyEvent(key)); err != nil {
			t.Fatal(err)
		}
	}
}

// podNode is where the page draws a pod: its node's name, "pending" in
// the pending lane, "" when absent.
const podNodeJS = `(function (name) {
  var el = document.querySelector('.pod[data-pod="' + CSS.escape(name) + '"]');
  if (!el) return '';
  var n = el.closest('[data-node]');
  if (n) return n.dataset.node;
  return el.closest('#pending-lane') ? 'pending' : '?';
})`

// move is a step at which a pod is bound to a node.
type move struct {
	step       int
	pod, node  string
	nodeBefore string // "" (absent) or "pending"
}

// findMove returns the first step of tr after which a pod is on a node it
// was not on before (the scheduler binding it).
func findMove(tr *report.JSONTrace) (move, bool) {
	where := func(s report.ClusterSnapshot, name string) string {
		for _, p := range s.Pods {
			if p.Name == name {
				if p.Node == "" {
					return "pending"
				}
				return p.Node
			}
		}
		return ""
	}
	prev := tr.Initial
	for i, st := range tr.Steps {
		for _, p := range st.Cluster.Pods {
			if before := where(prev, p.Name); p.Node != "" && before != p.Node {
				return move{step: i, pod: p.Name, node: p.Node, nodeBefore: before}, true
			}
		}
		prev = st.Cluster
	}
	return move{}, false
}

// caseReport verifies a built-in case's written topology with one worker
// (a deterministic counterexample).
func caseReport(t *testing.T, name string) *kivi.Report {
	t.Helper()
	c, err := cases.Get(name, 3, false)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := kivi.Verify(context.Background(), c, kivi.Options{Checker: checker.Options{Workers: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestExplorerInChromium(t *testing.T) {
	path := chromium(t)
	start := time.Now()
	defer func() { t.Logf("browser test took %s", time.Since(start).Round(time.Millisecond)) }()
	out := artifacts(t)
	srv := &pages{byPath: map[string][]byte{}}
	traces := map[string]*report.JSONTrace{}
	for _, name := range []string{"c1", "c5", "c8"} {
		rep := caseReport(t, name)
		var buf bytes.Buffer
		if err := rep.WriteHTML(&buf); err != nil {
			t.Fatal(err)
		}
		srv.byPath["/"+name+".html"] = buf.Bytes()
		in, ok := rep.JSON().FirstViolation()
		if !ok || in.Trace == nil {
			t.Fatalf("%s: no counterexample", name)
		}
		traces[name] = in.Trace
	}
	ts := httptest.NewServer(srv) // listens on 127.0.0.1
	defer ts.Close()
	bctx := browser(t, path)

	for _, name := range []string{"c1", "c5", "c8"} {
		t.Run(name, func(t *testing.T) {
			tr := traces[name]
			url := ts.URL + "/" + name + ".html"
			tab, ev := open(t, bctx, url)

			if n := eval[int](t, tab, `document.querySelectorAll('#timeline .step').length`); n != len(tr.Steps) {
				t.Errorf("%d steps rendered, the trace has %d", n, len(tr.Steps))
			}

			// The cycle marker: C5 and C8 are lassos.
			if (name == "c5" || name == "c8") && tr.LoopStart < 0 {
				t.Fatalf("%s: the counterexample is not a lasso", name)
			}
			marker := eval[[]int](t, tab, `Array.from(document.querySelectorAll('#timeline .cycle-start, #timeline .step.loop-start'), e => +e.dataset.step)`)
			inCycle := eval[int](t, tab, `document.querySelectorAll('#timeline .step.in-cycle').length`)
			if tr.LoopStart >= 0 {
				if len(marker) != 2 || marker[0] != tr.LoopStart || marker[1] != tr.LoopStart {
					t.Errorf("cycle marker on steps %v, the cycle starts at step %d", marker, tr.LoopStart)
				}
				if inCycle != len(tr.Steps)-tr.LoopStart {
					t.Errorf("%d steps marked in the cycle, want %d", inCycle, len(tr.Steps)-tr.LoopStart)
				}
			} else if len(marker) != 0 || inCycle != 0 {
				t.Errorf("a cycle marked (%v, %d steps) in a trace without one", marker, inCycle)
			}

			// Stepping with the keyboard moves the scheduled pod onto its node.
			mv, ok := findMove(tr)
			if !ok {
				t.Fatal("no step binds a pod to a node")
			}
			press(t, tab, kb.Home, 1)
			press(t, tab, kb.ArrowRight, mv.step) // the position before the move
			where := podNodeJS + `(` + jsString(mv.pod) + `)`
			if pos := eval[string](t, tab, `document.body.dataset.pos`); pos != fmt.Sprint(mv.step-1) {
				t.Fatalf("after Home and %d × →, at position %s", mv.step, pos)
			}
			if got := eval[string](t, tab, where); got != mv.nodeBefore {
				t.Errorf("before step %d, pod %s is drawn at %q, want %q", mv.step, mv.pod, got, mv.nodeBefore)
			}
			press(t, tab, kb.ArrowRight, 1)
			if got := eval[string](t, tab, where); got != mv.node {
				t.Errorf("after step %d, pod %s is drawn at %q, want node %q", mv.step, mv.pod, got, mv.node)
			}
			press(t, tab, kb.ArrowLeft, 1)
			if got := eval[string](t, tab, where); got != mv.nodeBefore {
				t.Errorf("back before step %d, pod %s is drawn at %q, want %q", mv.step, mv.pod, got, mv.nodeBefore)
			}
			press(t, tab, kb.End, 1)
			if pos := eval[string](t, tab, `document.body.dataset.pos`); pos != fmt.Sprint(len(tr.Steps)-1) {
				t.Errorf("End: at position %s, want %d", pos, len(tr.Steps)-1)
			}

			// The screenshot shows the move (or, for a lasso, a step of the cycle).
			shot := mv.step
			if tr.LoopStart >= 0 && shot < tr.LoopStart {
				shot = tr.LoopStart + 1
			}
			press(t, tab, kb.Home, 1)
			press(t, tab, kb.ArrowRight, min(shot, len(tr.Steps)-1)+1)
			png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(out, "explorer-"+name+".png")
			if err := os.WriteFile(file, png, 0o644); err != nil {
				t.Fatal(err)
			}
			fmt.Printf("screenshot: %s\n", file)
			t.Logf("screenshot: %s", file)

			checkQuiet(t, ev, url)
		})
	}

	t.Run("synthetic-200-steps", func(t *testing.T) {
		doc := syntheticReport(200)
		var buf bytes.Buffer
		if err := doc.WriteHTML(&buf); err != nil {
			t.Fatal(err)
		}
		srv.mu.Lock()
		srv.byPath["/synthetic.html"] = buf.Bytes()
		srv.mu.Unlock()
		url := ts.URL + "/synthetic.html"
		tab, ev := open(t, bctx, url)
		if n := eval[int](t, tab, `document.querySelectorAll('#timeline .step').length`); n != 200 {
			t.Fatalf("%d steps rendered, want 200", n)
		}
		// Each step change is timed in the page: the key handler redraws
		// synchronously, and reading offsetHeight forces the style and
		// layout work it caused, so both are inside the measurement. Every
		// change (forward from each step, and back) is taken three times
		// and its cost is the fastest of the three: the machine is shared,
		// and a sample the OS descheduled says nothing about the page. A
		// change whose fastest is still above half the bound is taken
		// again, up to twelve times in all: a page that needs that long
		// needs it every time, while a stall of the machine (a CI run
		// once saw three samples in a row over 50 ms where the median
		// was 2.5 ms) does not last twelve tries.
		m := eval[struct {
			Forward, Back []float64
			Raw           float64
		}](t, tab, strings.ReplaceAll(`(function () {
  var key = function (k) { document.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true })); };
  var timed = function (k) {
    var t0 = performance.now();
    key(k);
    void document.body.offsetHeight;
    return performance.now() - t0;
  };
  key('Home');
  var fwd = [], back = [], raw = 0;
  for (var i = 0; i < 200; i++) {
    var f = Infinity, b = Infinity;
    for (var r = 0; r < 12 && (r < 3 || f >= RETIME || b >= RETIME); r++) {
      var x = timed('ArrowRight');
      var y = timed('ArrowLeft');
      f = Math.min(f, x); b = Math.min(b, y); raw = Math.max(raw, x, y);
    }
    fwd.push(f); back.push(b);
    key('ArrowRight');
  }
  return { Forward: fwd, Back: back, Raw: raw };
})()`, "RETIME", strconv.FormatInt(maxStepChange.Milliseconds()/2, 10)))
		if pos := eval[string](t, tab, `document.body.dataset.pos`); pos != "199" {
			t.Fatalf("after the measurement, at position %s, want 199", pos)
		}
		times := append(append([]float64(nil), m.Forward...), m.Back...)
		sorted := append([]float64(nil), times...)
		sort.Float64s(sorted)
		median, p95, worst := sorted[len(sorted)/2], sorted[len(sorted)*95/100], sorted[len(sorted)-1]
		msg := fmt.Sprintf("step change, %d changes of a 200-step trace (12 nodes, 36 pods), fastest of 3 tries each (of 12 where above %d ms): median %.2f ms, p95 %.2f ms, max %.2f ms (slowest single sample %.2f ms)",
			len(times), maxStepChange.Milliseconds()/2, median, p95, worst, m.Raw)
		fmt.Println(msg)
		t.Log(msg)
		if worst >= float64(maxStepChange.Milliseconds()) {
			t.Errorf("a step change took %.2f ms (best of its tries), want under %v", worst, maxStepChange)
		}
		png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(out, "explorer-synthetic.png")
		if err := os.WriteFile(file, png, 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("screenshot: %s\n", file)
		checkQuiet(t, ev, url)
	})

	// Server side: the browser asked for the pages and nothing else (no
	// favicon, no assets).
	srv.mu.Lock()
	defer srv.mu.Unlock()
	for _, p := range srv.requests {
		if _, ok := srv.byPath[p]; !ok {
			t.Errorf("the browser requested %s from the server", p)
		}
	}
}

// checkQuiet fails on console errors, exceptions, browser errors and on
// any request but the page's own.
func checkQuiet(t *testing.T, ev *tabEvents, url string) {
	t.Helper()
	ev.mu.Lock()
	defer ev.mu.Unlock()
	for _, e := range ev.errors {
		t.Errorf("browser: %s", e)
	}
	if len(ev.requests) == 0 {
		t.Error("no request recorded: the network listener saw nothing, not even the page")
	}
	for _, r := range ev.requests {
		if r != url {
			t.Errorf("the page requested %s (only %s is allowed)", r, url)
		}
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestExplorerNamesCheckedSteps: an intent a budget left Unknown is
// listed among the other verdicts with the steps within which the search
// found no violation of it (report.Report.CheckedSteps). C4's written
// topology, cut by a state bound after its pod_always_schedulable
// violation, leaves no_kernel_panic Unknown.
func TestExplorerNamesCheckedSteps(t *testing.T) {
	path := chromium(t)
	c, err := cases.Get("c4", 3, false)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := kivi.Verify(context.Background(), c, kivi.Options{NoQuickPass: true, NoDepthFirst: true, ProbeStates: -1,
		Checker: checker.Options{Workers: 1, NoPOR: true, CollectAll: true, MaxStates: 330}})
	if err != nil {
		t.Fatal(err)
	}
	n, covered := rep.CheckedSteps(), rep.CheckedIntents()
	if n == 0 || len(covered) == 0 || len(rep.Violated()) == 0 {
		t.Fatalf("checked steps %d for %v, %d violated: the setup does not exercise the listing", n, covered, len(rep.Violated()))
	}
	var buf bytes.Buffer
	if err := rep.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	srv := &pages{byPath: map[string][]byte{"/c4.html": buf.Bytes()}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	url := ts.URL + "/c4.html"
	tab, ev := open(t, browser(t, path), url)
	want := fmt.Sprintf("none within %d steps", n)
	for _, name := range covered {
		got := eval[string](t, tab, `Array.from(document.querySelectorAll('#sidebar li.other'), e => e.textContent).find(s => s.startsWith(`+jsString(name)+`)) || ''`)
		if !strings.Contains(got, want) {
			t.Errorf("%s is listed as %q, want %q in it", name, got, want)
		}
	}
	checkQuiet(t, ev, url)
}
