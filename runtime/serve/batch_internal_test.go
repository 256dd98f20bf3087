package serve

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"cms/handlers/web"
)

// countingConn counts the writes that reach the socket.
type countingConn struct {
	net.Conn
	mu     sync.Mutex
	writes int
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.writes++
	c.mu.Unlock()
	return c.Conn.Write(p)
}

func (c *countingConn) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writes
}

type countingListener struct {
	net.Listener
	conns chan *countingConn
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	cc := &countingConn{Conn: c}
	l.conns <- cc
	return cc, nil
}

// body is n bytes of a recognisable pattern.
func body(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a' + byte(i%26)
	}
	return b
}

// TestSendBodyOneWrite: over Local's server and listener, a response web.SendBody writes leaves
// in one write system call up to maxHeld, whatever net/http's 4 KB buffer; it arrives whole, on
// a kept-alive connection, for pipelined requests and HEAD; a plain handler's writes are not
// held back.
func TestSendBodyOneWrite(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conns := make(chan *countingConn, 8)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /send/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		b := body(n)
		w.Header().Set("Content-Type", "text/plain")
		// Three parts, as cached fragments are sent.
		if err := web.SendBody(w, r, http.StatusOK, b[:n/3], b[n/3:n/2], b[n/2:]); err != nil {
			t.Errorf("SendBody: %v", err)
		}
	})
	mux.HandleFunc("GET /plain/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		_, _ = w.Write(body(n))
	})
	log := slog.New(slog.DiscardHandler)
	srv := newServer(t.Context(), mux, log, Limits{})
	go func() { _ = srv.Serve(listener(countingListener{ln, conns}, Limits{}, log)) }()
	t.Cleanup(func() { _ = srv.Shutdown(context.Background()) })

	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sc := <-conns
	rd := bufio.NewReader(c)
	get := func(method, path string) *http.Response {
		t.Helper()
		if _, err := fmt.Fprintf(c, "%s %s HTTP/1.1\r\nHost: x\r\n\r\n", method, path); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(rd, &http.Request{Method: method})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	check := func(resp *http.Response, n int) {
		t.Helper()
		got, err := io.ReadAll(resp.Body)
		if err != nil || !bytes.Equal(got, body(n)) || resp.ContentLength != int64(n) && resp.ContentLength != -1 {
			t.Errorf("%d bytes: read %d (%v), Content-Length %d", n, len(got), err, resp.ContentLength)
		}
	}
	// Parts under directWrite: one write for the whole response. A larger part leaves at once
	// with what is held, in one writev on a TCP socket, which this counting wrapper (no writev of
	// its own) sees as two writes, and a later large part alone: at most four here.
	for _, n := range []int{1, 4000, 4096, 6000, 7000, 12345, 16000, maxHeld - 200} {
		want := 1
		if n/2 >= directWrite { // the last part, half the body, is a large one
			want = 4
		}
		before := sc.count()
		resp := get("GET", "/send/"+strconv.Itoa(n))
		if resp.ContentLength != int64(n) {
			t.Errorf("Content-Length %d, want %d", resp.ContentLength, n)
		}
		check(resp, n)
		if w := sc.count() - before; w != want && !(want == 4 && w <= want) {
			t.Errorf("a %d-byte response took %d writes, want %d", n, w, want)
		}
	}
	// Over maxHeld: as few writes as it takes, all of it arriving.
	before := sc.count()
	check(get("GET", "/send/300000"), 300000)
	if w := sc.count() - before; w > 300000/maxHeld+2 {
		t.Errorf("a 300,000-byte response took %d writes", w)
	}
	// HEAD: the headers only.
	resp := get("HEAD", "/send/6000")
	if resp.ContentLength != 6000 {
		t.Errorf("HEAD Content-Length %d", resp.ContentLength)
	}
	// Pipelined: both answers, in order.
	if _, err := fmt.Fprintf(c, "GET /send/5000 HTTP/1.1\r\nHost: x\r\n\r\nGET /send/7000 HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{5000, 7000} {
		resp, err := http.ReadResponse(rd, &http.Request{Method: "GET"})
		if err != nil {
			t.Fatal(err)
		}
		check(resp, n)
	}
	// A handler that does not use SendBody streams as net/http does: nothing is held.
	before = sc.count()
	check(get("GET", "/plain/10000"), 10000)
	if w := sc.count() - before; w < 2 {
		t.Errorf("a plain 10,000-byte response took %d writes; its writes were held", w)
	}
}

// TestBatchConn: what is held goes out on Release, Close and CloseWrite, before anything
// written later, and a write beyond maxHeld does not wait.
func TestBatchConn(t *testing.T) {
	t.Parallel()
	a, b := net.Pipe()
	defer b.Close()
	got := make(chan string, 1)
	go func() {
		all, _ := io.ReadAll(b)
		got <- string(all)
	}()
	c := &batchConn{Conn: a, raw: a}
	c.Hold()
	for _, s := range []string{"one ", "two "} {
		if n, err := c.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("held write: %d, %v", n, err)
		}
	}
	if err := c.Release(); err != nil {
		t.Fatal(err)
	}
	if c.held != nil || c.heldp != nil { // an idle connection keeps no buffer
		t.Errorf("after Release the connection still holds a buffer of %d bytes", cap(c.held))
	}
	if _, err := c.Write([]byte("three ")); err != nil {
		t.Fatal(err)
	}
	// A large write goes out at once, after what is held and before what follows.
	big := strings.Repeat("B", directWrite)
	c.Hold()
	for _, s := range []string{"[", big, "]"} {
		if n, err := c.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("held write of %d bytes: %d, %v", len(s), n, err)
		}
	}
	if err := c.Release(); err != nil {
		t.Fatal(err)
	}
	c.Hold()
	_, _ = c.Write([]byte("four"))
	if err := c.Close(); err != nil { // held bytes are sent, not dropped
		t.Fatal(err)
	}
	if s := <-got; s != "one two three ["+big+"]four" {
		t.Errorf("the peer read %q", s[:min(len(s), 40)])
	}
}
