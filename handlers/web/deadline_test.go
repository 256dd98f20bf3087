package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"cms/handlers/web"
)

// guard bounds a test that would otherwise hang; it is a failure guard, far above any expected
// duration, not a measure.
const guard = 30 * time.Second

// bodyServer serves a JSON endpoint with a body-read timeout of d and reports what each request
// saw: the DecodeJSON error, and whether the request's context ended while the handler waited
// past the deadline.
func bodyServer(t *testing.T, d time.Duration) (addr string, seen chan error) {
	t.Helper()
	seen = make(chan error, 4)
	srv := httptest.NewUnstartedServer(web.HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
		var v map[string]any
		if err := web.DecodeJSON(w, r, 0, &v); err != nil {
			seen <- err
			return err
		}
		// The deadline must not outlive the body: waiting well past it, the request stays alive.
		select {
		case <-r.Context().Done():
			seen <- errors.New("request context ended after the body was read")
		case <-time.After(20 * d):
			seen <- nil
		}
		web.WriteJSON(w, http.StatusOK, v)
		return nil
	}))
	srv.Config.BaseContext = func(net.Listener) context.Context {
		return web.WithBodyReadTimeout(context.Background(), d)
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().String(), seen
}

// TestStalledBodyIsCut is the slow-body regression test: a client that sends its headers and
// part of a small JSON body and then stalls gets a 408 and its connection closed, instead of
// holding it for as long as it likes.
func TestStalledBodyIsCut(t *testing.T) {
	t.Parallel()
	addr, seen := bodyServer(t, 50*time.Millisecond)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(guard))
	if _, err := io.WriteString(conn, "POST /x HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\":"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no response to a stalled body: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	var env web.Envelope
	if resp.StatusCode != http.StatusRequestTimeout || json.Unmarshal(body, &env) != nil || env.Error.Code != "REQUEST_TIMEOUT" {
		t.Errorf("response = %d %s, want 408 REQUEST_TIMEOUT", resp.StatusCode, body)
	}
	if !resp.Close {
		t.Errorf("response keeps the connection open: %v", resp.Header)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		t.Errorf("connection still open after the timeout: read = %v, want EOF", err)
	}
	if err := <-seen; err == nil {
		t.Error("the handler read a body that never arrived")
	}
}

// TestBodyInTimeKeepsConnection: a body that arrives is read whole, the deadline is lifted (the
// handler outlives it without its context ending), and the connection serves the next request.
func TestBodyInTimeKeepsConnection(t *testing.T) {
	t.Parallel()
	addr, seen := bodyServer(t, 50*time.Millisecond)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(guard))
	br := bufio.NewReader(conn)
	for i := range 2 {
		if _, err := io.WriteString(conn, "POST /x HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 8\r\n\r\n{\"a\":1}\n"); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || !strings.Contains(string(body), `"a":1`) {
			t.Errorf("request %d = %d %s", i, resp.StatusCode, body)
		}
		if err := <-seen; err != nil {
			t.Errorf("request %d: %v", i, err)
		}
	}
}
