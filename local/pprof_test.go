package main

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
)

func TestServePprof(t *testing.T) {
	t.Parallel()
	log := slog.New(slog.DiscardHandler)
	for _, addr := range []string{"0.0.0.0:0", ":0", "example.com:0", "nonsense"} {
		if stop, err := servePprof(addr, log); err == nil {
			stop()
			t.Errorf("servePprof(%q) accepted a non-loopback address", addr)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	stop, err := servePprof(addr, log)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	resp, err := http.Get("http://" + addr + "/debug/pprof/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), ".test") {
		t.Errorf("cmdline: %d %q", resp.StatusCode, b)
	}
}
