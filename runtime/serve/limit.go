package serve

import (
	"io"
	"log/slog"
	"net"
	"sync"
	"time"
)

// Limits bound what clients may hold of a server run by Local.
type Limits struct {
	// MaxConns caps the open connections; 0 means no cap. Keep it well below the process's
	// open-file limit, which the files the service reads need too.
	MaxConns int
	// MaxConnsPerAddr caps the open connections from one client address (for IPv6, one /64,
	// which a single host usually holds whole); 0 means no cap. Behind a reverse proxy every
	// connection comes from the proxy: raise it or set 0 there and let the proxy limit clients.
	MaxConnsPerAddr int
	// BodyTimeout is how long a small request body may take to arrive (web.ReadBody); 0 means
	// web.DefaultBodyReadTimeout.
	BodyTimeout time.Duration
}

// LimitListener returns ln with lim's connection caps. A connection over a cap is closed as
// soon as it is accepted, and accepting goes on: a flood from one address cannot take the file
// descriptors other clients need, and no connection waits in a queue for a slot.
func LimitListener(ln net.Listener, lim Limits, log *slog.Logger) net.Listener {
	if lim.MaxConns <= 0 && lim.MaxConnsPerAddr <= 0 {
		return ln
	}
	return &limitListener{Listener: ln, lim: lim, log: log, perAddr: map[string]int{}}
}

type limitListener struct {
	net.Listener
	lim Limits
	log *slog.Logger

	mu      sync.Mutex
	open    int
	perAddr map[string]int
	refused int       // refusals since the last log line
	logged  time.Time // when a refusal was last logged
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key := addrKey(c.RemoteAddr())
		if l.take(key) {
			return &limitedConn{Conn: c, release: func() { l.release(key) }}, nil
		}
		c.Close()
	}
}

func (l *limitListener) take(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	var over string
	switch {
	case l.lim.MaxConns > 0 && l.open >= l.lim.MaxConns:
		over = "server.maxConnections"
	case l.lim.MaxConnsPerAddr > 0 && l.perAddr[key] >= l.lim.MaxConnsPerAddr:
		over = "server.maxConnectionsPerAddress"
	default:
		l.open++
		l.perAddr[key]++
		return true
	}
	// One line a minute at most: a flood must not flood the log as well.
	l.refused++
	if now := time.Now(); now.Sub(l.logged) >= time.Minute {
		l.log.Warn("connections refused", "limit", over, "refused", l.refused, "open", l.open, "client", key)
		l.logged, l.refused = now, 0
	}
	return false
}

func (l *limitListener) release(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if l.perAddr[key]--; l.perAddr[key] <= 0 {
		delete(l.perAddr, key)
	}
}

// addrKey is the client address a connection counts against: its IP, or its IPv6 /64.
func addrKey(a net.Addr) string {
	t, ok := a.(*net.TCPAddr)
	if !ok {
		return a.String()
	}
	ip := t.AddrPort().Addr().Unmap().WithZone("")
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

// limitedConn gives its slot back when it is closed, once.
type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// ReadFrom and CloseWrite keep what net/http finds on a *net.TCPConn: sendfile for asset
// bodies, and a half-close before the lingering close of a connection it gives up on.
func (c *limitedConn) ReadFrom(r io.Reader) (int64, error) { return io.Copy(c.Conn, r) }

// NetConn returns the connection under the cap's accounting (for writev; see batchConn).
func (c *limitedConn) NetConn() net.Conn { return c.Conn }

func (c *limitedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
