package serve_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"cms/handlers/web"
	"cms/runtime/serve"
)

// guard bounds a wait that would otherwise hang when the code is wrong; it is a failure guard,
// far above any expected duration, never a measure.
const guard = 30 * time.Second

// echoServer accepts from LimitListener(ln, lim) and echoes every connection it gets; closed
// receives once for each connection it has closed after its client went away.
func echoServer(t *testing.T, lim serve.Limits) (addr string, accepted <-chan net.Conn, closed <-chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := serve.LimitListener(ln, lim, slog.New(slog.DiscardHandler))
	acc, cl := make(chan net.Conn, 500), make(chan struct{}, 500)
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			acc <- c
			wg.Go(func() {
				_, _ = io.Copy(c, c)
				c.Close()
				cl <- struct{}{}
			})
		}
	})
	t.Cleanup(func() {
		l.Close()
		for len(acc) > 0 {
			(<-acc).Close()
		}
		wg.Wait()
	})
	return ln.Addr().String(), acc, cl
}

// dialFrom connects to addr from the loopback address from (127.0.0.2 and so on are loopback
// addresses of their own on Linux; elsewhere the test is skipped).
func dialFrom(t *testing.T, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: guard}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		if from != "127.0.0.1" {
			t.Skipf("cannot dial from %s: %v", from, err)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(guard))
	return c
}

// served reports whether the echo server answers on c; false means the connection was closed
// (refused). A wait past the guard is a test failure, not a refusal.
func served(t *testing.T, c net.Conn) bool {
	t.Helper()
	ok, err := echoes(c)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// echoes is served for goroutines other than the test's.
func echoes(c net.Conn) (bool, error) {
	if _, err := c.Write([]byte("x")); err != nil {
		return false, nil
	}
	var b [1]byte
	_, err := io.ReadFull(c, b[:])
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return false, fmt.Errorf("no answer and no close on %s within the guard", c.LocalAddr())
	}
	return err == nil && b[0] == 'x', nil
}

func accept(t *testing.T, accepted <-chan net.Conn) {
	t.Helper()
	select {
	case <-accepted:
	case <-time.After(guard):
		t.Fatal("connection not accepted")
	}
}

// TestPerAddressCap: beyond MaxConnsPerAddr connections from one address the next is closed,
// those accepted keep working, and a connection that ends frees its slot.
func TestPerAddressCap(t *testing.T) {
	t.Parallel()
	addr, accepted, closed := echoServer(t, serve.Limits{MaxConnsPerAddr: 3})
	var conns []net.Conn
	for range 3 {
		c := dialFrom(t, "127.0.0.1", addr)
		accept(t, accepted)
		conns = append(conns, c)
	}
	if served(t, dialFrom(t, "127.0.0.1", addr)) {
		t.Fatal("a fourth connection from one address was served")
	}
	for i, c := range conns {
		if !served(t, c) {
			t.Errorf("accepted connection %d refused", i)
		}
	}
	conns[0].Close()
	<-closed // the server saw it go
	c := dialFrom(t, "127.0.0.1", addr)
	accept(t, accepted)
	if !served(t, c) {
		t.Error("a freed slot was not given to a new connection")
	}
}

// TestTotalCap: the overall cap holds across addresses, and one address at its own cap does not
// keep another out.
func TestTotalCap(t *testing.T) {
	t.Parallel()
	addr, accepted, closed := echoServer(t, serve.Limits{MaxConns: 4, MaxConnsPerAddr: 3})
	var first []net.Conn
	for range 3 {
		first = append(first, dialFrom(t, "127.0.0.1", addr))
		accept(t, accepted)
	}
	other := dialFrom(t, "127.0.0.2", addr)
	accept(t, accepted)
	if !served(t, other) {
		t.Fatal("a second address was refused while under the overall cap")
	}
	if served(t, dialFrom(t, "127.0.0.2", addr)) {
		t.Fatal("a fifth connection was served over MaxConns 4")
	}
	first[0].Close()
	<-closed
	c := dialFrom(t, "127.0.0.2", addr)
	accept(t, accepted)
	if !served(t, c) {
		t.Error("a freed slot was not given to a new connection")
	}
}

// TestCapUnderConcurrentDials: many clients at once get exactly the cap's worth of
// connections, and once they leave the slots are all free again.
func TestCapUnderConcurrentDials(t *testing.T) {
	t.Parallel()
	const clients, limit = 120, 40
	addr, accepted, closed := echoServer(t, serve.Limits{MaxConns: limit})
	var mu sync.Mutex
	var servedConns []net.Conn
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			c, err := net.DialTimeout("tcp", addr, guard)
			if err != nil {
				t.Error(err)
				return
			}
			_ = c.SetDeadline(time.Now().Add(guard))
			if ok, err := echoes(c); !ok {
				if err != nil {
					t.Error(err)
				}
				c.Close()
				return
			}
			mu.Lock()
			servedConns = append(servedConns, c)
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(servedConns) != limit {
		t.Fatalf("%d of %d connections served, want %d", len(servedConns), clients, limit)
	}
	for _, c := range servedConns {
		c.Close()
		<-accepted
	}
	for range limit {
		<-closed
	}
	for range limit {
		c := dialFrom(t, "127.0.0.1", addr)
		accept(t, accepted)
		if !served(t, c) {
			t.Fatal("slots not freed after every connection closed")
		}
	}
}

// deadlineWriter records the read deadline a handler sets.
type deadlineWriter struct {
	http.ResponseWriter
	deadline time.Time
}

func (d *deadlineWriter) SetReadDeadline(t time.Time) error { d.deadline = t; return nil }

// TestLocalLimits runs Local with a per-address cap of 2: a third connection is refused while
// two are open, a slot frees once a client leaves, and handlers get Limits.BodyTimeout.
func TestLocalLimits(t *testing.T) {
	t.Parallel()
	const bodyTimeout = time.Hour // far from the default, so the test tells them apart
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dw := &deadlineWriter{ResponseWriter: w}
		start := time.Now()
		if _, err := web.ReadBody(dw, r, 100); err != nil {
			web.WriteError(w, r, err)
			return
		}
		if dw.deadline.Sub(start) < bodyTimeout {
			web.WriteJSON(w, http.StatusInternalServerError, "body deadline "+dw.deadline.Sub(start).String())
			return
		}
		web.WriteJSON(w, http.StatusOK, "ok")
	})
	ctx, cancel := context.WithCancel(context.Background())
	addrc, done := make(chan string, 1), make(chan error, 1)
	go func() {
		done <- serve.Local(ctx, "127.0.0.1:0", h, slog.New(slog.DiscardHandler),
			serve.Limits{MaxConnsPerAddr: 2, BodyTimeout: bodyTimeout}, func(a net.Addr) { addrc <- a.String() })
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Local: %v", err)
		}
	})
	addr := <-addrc
	get := func(c net.Conn) (int, error) {
		if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: a\r\n\r\n"); err != nil {
			return 0, err
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, nil
	}
	c1, c2 := dialFrom(t, "127.0.0.1", addr), dialFrom(t, "127.0.0.1", addr)
	for _, c := range []net.Conn{c1, c2} {
		if code, err := get(c); code != 200 || err != nil {
			t.Fatalf("GET = %d, %v", code, err)
		}
	}
	if code, err := get(dialFrom(t, "127.0.0.1", addr)); err == nil {
		t.Fatalf("a third connection from one address got %d", code)
	} else if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatal("a third connection was neither served nor closed within the guard")
	}
	c1.Close()
	// The server frees the slot when it reads c1's end; until then a new connection may still be
	// refused, so try until one is served (the guard ends a wait that never would be).
	for stop := time.Now().Add(guard); ; {
		if code, err := get(dialFrom(t, "127.0.0.1", addr)); err == nil {
			if code != 200 {
				t.Fatalf("GET = %d", code)
			}
			break
		}
		if time.Now().After(stop) {
			t.Fatal("the slot of a closed connection was never freed")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
