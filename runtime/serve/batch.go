package serve

import (
	"io"
	"net"
	"sync"
)

// maxHeld bounds what a batchConn holds before it writes anyway: a response of a known size
// goes out in one system call up to this size, and a larger one in as few as it takes.
const maxHeld = 64 << 10

// batchConn lets a handler send a whole response in one write system call (web.SendBody).
// net/http writes a response through a 4 KB buffer, so one of 6 KB leaves in two writes, and
// on loopback or a fast link each write costs about as much as the bytes (a bare handler
// sending 6 KB spends a quarter less CPU when its writes are joined). Between Hold and Release
// the connection keeps what is written; Release writes it at once.
//
// The goroutine serving the connection's current request holds, writes and releases (HTTP/1.x);
// mu guards the held bytes all the same, against a Close or CloseWrite from elsewhere. The
// buffer comes from a pool at Hold and goes back at Release, so an idle connection keeps none.
type batchConn struct {
	net.Conn
	raw     net.Conn // the socket under Conn's wrappers, for writev (net.Buffers)
	mu      sync.Mutex
	holding bool
	held    []byte
	heldp   *[]byte // the pooled buffer held came from
}

// directWrite is the size from which a held write goes out at once with what is held (one
// writev), rather than being copied: a large body costs no copy, and still one system call.
const directWrite = 8 << 10

// heldBufs are the buffers of held writes, reused across connections.
var heldBufs = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// Hold starts keeping writes.
func (c *batchConn) Hold() {
	c.mu.Lock()
	c.holding = true
	if c.heldp == nil {
		c.heldp = heldBufs.Get().(*[]byte)
		c.held = (*c.heldp)[:0]
	}
	c.mu.Unlock()
}

// Release writes what was kept, in one write, and stops keeping writes.
func (c *batchConn) Release() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.holding = false
	return c.flushLocked()
}

// flushLocked writes what is held and, unless still holding, gives the buffer back (one that
// grew past maxHeld is dropped).
func (c *batchConn) flushLocked() error {
	var err error
	if len(c.held) > 0 {
		_, err = c.raw.Write(c.held)
		c.held = c.held[:0]
	}
	if !c.holding && c.heldp != nil {
		if cap(c.held) <= maxHeld {
			*c.heldp = c.held
			heldBufs.Put(c.heldp)
		}
		c.held, c.heldp = nil, nil
	}
	return err
}

func (c *batchConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.holding {
		if len(c.held) > 0 { // cannot happen after Release; kept for order all the same
			if err := c.flushLocked(); err != nil {
				return 0, err
			}
		}
		return c.raw.Write(p)
	}
	if len(p) >= directWrite || len(c.held)+len(p) > maxHeld {
		if len(c.held) == 0 {
			return c.raw.Write(p)
		}
		bufs := net.Buffers{c.held, p}
		n, err := bufs.WriteTo(c.raw)
		written := int(n) - len(c.held)
		c.held = c.held[:0]
		if err != nil {
			return max(written, 0), err
		}
		return len(p), nil
	}
	c.held = append(c.held, p...)
	return len(p), nil
}

// Close and CloseWrite send what is held first: nothing written is dropped.
func (c *batchConn) Close() error {
	c.mu.Lock()
	c.holding = false
	_ = c.flushLocked()
	c.mu.Unlock()
	return c.Conn.Close()
}

func (c *batchConn) CloseWrite() error {
	c.mu.Lock()
	c.holding = false
	err := c.flushLocked()
	c.mu.Unlock()
	if err != nil {
		return err
	}
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// ReadFrom keeps sendfile for file bodies (net/http asks its connection for io.ReaderFrom),
// after what is held.
func (c *batchConn) ReadFrom(r io.Reader) (int64, error) {
	c.mu.Lock()
	err := c.flushLocked()
	c.mu.Unlock()
	if err != nil {
		return 0, err
	}
	return io.Copy(c.Conn, r)
}

// batchListener wraps every accepted connection in a batchConn.
type batchListener struct{ net.Listener }

func (l batchListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	raw := c
	for {
		u, ok := raw.(interface{ NetConn() net.Conn })
		if !ok {
			break
		}
		raw = u.NetConn()
	}
	return &batchConn{Conn: c, raw: raw}, nil
}
