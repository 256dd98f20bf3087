package main

import (
	"bytes"
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"cms/content/contenttest"
)

// syncBuffer is a bytes.Buffer the server's goroutines and the test may share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServer runs `cms <args>` (serve or dev) in-process until the test ends and returns the
// base URL of the listener and the command's output so far.
func startServer(t *testing.T, getenv map[string]string, args ...string) (base string, out *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	out = &syncBuffer{}
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	e := env{getenv: func(k string) string { return getenv[k] }, stdin: strings.NewReader(""), stdout: out, stderr: out}
	go func() { errc <- runServer(ctx, e, args, func(a net.Addr) { addrc <- a }) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-errc:
			if err != nil {
				t.Errorf("server: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("server did not shut down")
		}
	})
	select {
	case a := <-addrc:
		return "http://" + a.String(), out
	case err := <-errc:
		errc <- err
		t.Fatalf("server did not start: %v\n%s", err, out)
	case <-time.After(60 * time.Second):
		t.Fatalf("server did not start\n%s", out)
	}
	return "", nil
}

// The server warns at start-up about a collection whose blueprint: is a list, naming the file.
func TestServeWarnsAboutBlueprintList(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- cms.config.yaml --
watch: none
-- resources/collections/blog.yaml --
title: Blog
blueprint: [post, page]
`)
	_, out := startServer(t, nil, "serve", "--site", dir, "--addr", "127.0.0.1:0")
	if s := out.String(); !strings.Contains(s, "level=WARN") || !strings.Contains(s, "resources/collections/blog.yaml") || !strings.Contains(s, "blueprint is a list") {
		t.Errorf("start-up output does not warn about the blueprint list:\n%s", s)
	}
}

// runServer runs the serve or dev command with a ready callback.
func runServer(ctx context.Context, e env, args []string, ready func(net.Addr)) error {
	e.ready = ready
	return commands()[args[0]].run(ctx, e, args[1:])
}
