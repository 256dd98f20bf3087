package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// TestServeConnectionCap: server.maxConnectionsPerAddress reaches the listener of `cms serve`.
func TestServeConnectionCap(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	addrc, errc := make(chan net.Addr, 1), make(chan error, 1)
	go func() {
		vars := map[string]string{"CMS_SERVER_MAX_CONNECTIONS_PER_ADDRESS": "1"}
		e := env{getenv: func(k string) string { return vars[k] }, stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
		errc <- serveSite(ctx, e, t.TempDir(), "127.0.0.1:0", func(a net.Addr) { addrc <- a })
	}()
	t.Cleanup(func() {
		cancel()
		<-errc
	})
	var addr string
	select {
	case a := <-addrc:
		addr = a.String()
	case err := <-errc:
		t.Fatalf("serve: %v", err)
	}
	get := func() (int, error) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return 0, err
		}
		t.Cleanup(func() { c.Close() })
		_ = c.SetDeadline(time.Now().Add(30 * time.Second)) // a failure guard
		if _, err := io.WriteString(c, "GET /api/health/live HTTP/1.1\r\nHost: a\r\n\r\n"); err != nil {
			return 0, err
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	if code, err := get(); code != 200 {
		t.Fatalf("first connection: %d, %v", code, err)
	}
	if code, err := get(); err == nil {
		t.Errorf("second connection from one address served (%d) with server.maxConnectionsPerAddress 1", code)
	} else if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Error("second connection neither served nor closed within the guard")
	}
}
