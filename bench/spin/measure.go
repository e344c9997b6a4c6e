package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"syscall"
	"time"
)

// measured is one child process run.
type measured struct {
	Stdout  string
	Wall    time.Duration
	MaxRSSB int64 // peak resident set, bytes (wait4 rusage; includes waited-for descendants)
}

// runMeasured runs name with args in dir and measures it.
func runMeasured(dir, name string, args ...string) (measured, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return measured{}, err
	}
	err := cmd.Wait()
	wall := time.Since(start)
	m := measured{Stdout: out.String(), Wall: wall}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		m.MaxRSSB = int64(ru.Maxrss) * 1024 // Linux reports KiB (Maxrss is 32 bits wide on 32-bit Linux)
	}
	if err != nil {
		return m, fmt.Errorf("%s %v: %w\n%s%s", name, args, err, out.String(), errb.String())
	}
	return m, nil
}
