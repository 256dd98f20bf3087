package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSecondSignalForcesExit runs this test binary as a child that installs main's signal
// handling and then, like a shutdown waiting on a stuck request, never finishes; the first
// SIGINT must start the shutdown and the second must end the process at once.
func TestSecondSignalForcesExit(t *testing.T) {
	if os.Getenv("CMS_TEST_SIGNAL_CHILD") == "1" {
		signalChild()
		return
	}
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send on Windows")
	}
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSecondSignalForcesExit$")
	cmd.Env = append(os.Environ(), "CMS_TEST_SIGNAL_CHILD=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A generous bound against a hung child only: the child sleeps an hour if nothing ends it.
	killer := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	defer killer.Stop()
	lines := bufio.NewScanner(stdout)
	waitFor := func(want string) {
		t.Helper()
		for lines.Scan() {
			if lines.Text() == want {
				return
			}
		}
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child ended before printing %q; stderr:\n%s", want, stderr.String())
	}
	waitFor("ready")
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	waitFor("shutting down")
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() {
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("child after a second SIGINT: %v (want exit status 130); stderr:\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "cms: second signal (interrupt) during shutdown: forcing exit") {
		t.Errorf("stderr = %q, want the line saying the exit was forced", stderr.String())
	}
}

// signalChild is the child of TestSecondSignalForcesExit.
func signalChild() {
	ctx, stop := shutdownOnSignal(context.Background(), os.Stderr, os.Exit, os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Stdout.WriteString("ready\n")
	<-ctx.Done()
	os.Stdout.WriteString("shutting down\n")
	time.Sleep(time.Hour) // a shutdown that does not finish
	os.Exit(0)
}

// TestWatchSignals checks the same logic on an injected channel: the first signal cancels,
// the second exits 130.
func TestWatchSignals(t *testing.T) {
	t.Parallel()
	sigs := make(chan os.Signal, 1)
	exited := make(chan int, 1)
	var stderr syncBuffer
	ctx, stop := watchSignals(context.Background(), sigs, &stderr, func(code int) { exited <- code })
	defer stop()
	sigs <- syscall.SIGTERM
	<-ctx.Done()
	sigs <- syscall.SIGTERM
	if code := <-exited; code != 130 || !strings.Contains(stderr.String(), "forcing exit") {
		t.Errorf("second signal: exit(%d), stderr %q", code, stderr.String())
	}
}
