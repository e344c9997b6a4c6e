package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/kivi-go/kivi"
)

// pageOut is where the counterexample explorer goes: a file (--html, for
// verify and explore) and, for explore, a page served on localhost.
type pageOut struct {
	file  string
	serve bool
	port  int
	// page is the rendered page, kept for serving.
	page []byte
}

func (p *pageOut) register(fs *flag.FlagSet) {
	fs.StringVar(&p.file, "html", "", "also write the counterexample explorer (one self-contained HTML page) to this file")
	if p.serve {
		fs.IntVar(&p.port, "port", 0, "serve the explorer on 127.0.0.1 at this port (0 = any free port, printed)")
	}
}

// wanted reports whether a page is to be written or served.
func (p *pageOut) wanted() bool { return p.file != "" || p.serve }

// emit renders the page with write (kivi.WriteHTML or WriteHTMLDoc) when
// one is wanted.
func (p *pageOut) emit(write func(io.Writer) error) error {
	if !p.wanted() {
		return nil
	}
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return err
	}
	if p.file != "" {
		if err := os.WriteFile(p.file, buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("--html: %w", err)
		}
	}
	if p.serve {
		p.page = buf.Bytes()
	}
	return nil
}

// cmdExplore is verify, then the explorer served on localhost until the
// context ends (Ctrl-C). It opens no browser: it prints the address. The
// exit status is the verification's.
func cmdExplore(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	page := &pageOut{serve: true}
	code := verifyCommand(ctx, "explore", args, stdout, stderr, page)
	if code == exitInput || page.page == nil {
		return code
	}
	if page.port < 0 || page.port > 65535 {
		return inputError(stderr, fmt.Errorf("--port %d (accepted: 0 for any free port, or 1..65535): %w", page.port, errUsage))
	}
	// Loopback only: the page shows a cluster's configuration.
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(page.port)))
	if err != nil {
		fmt.Fprintf(stderr, "kivi: %v\n", err)
		return exitInput
	}
	srv := &http.Server{Handler: kivi.ExplorerHandler(page.page), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "Trace explorer: http://%s/ (Ctrl-C to stop)\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		<-done
	case err := <-done:
		if !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(stderr, "kivi: %v\n", err)
			return exitInput
		}
	}
	return code
}
