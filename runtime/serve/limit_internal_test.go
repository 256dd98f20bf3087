package serve

import (
	"net"
	"testing"
)

func TestAddrKey(t *testing.T) {
	t.Parallel()
	key := func(s string) string {
		a, err := net.ResolveTCPAddr("tcp", s)
		if err != nil {
			t.Fatal(err)
		}
		return addrKey(a)
	}
	for _, c := range []struct{ a, b string }{
		{"127.0.0.1:1", "127.0.0.1:2"},
		{"[::ffff:192.0.2.1]:1", "192.0.2.1:2"},
		{"[2001:db8:1:2::1]:1", "[2001:db8:1:2:ffff::9]:2"}, // one /64
		{"[fe80::1%1]:1", "[fe80::2]:2"},
	} {
		if key(c.a) != key(c.b) {
			t.Errorf("%s and %s count apart: %q, %q", c.a, c.b, key(c.a), key(c.b))
		}
	}
	for _, c := range []struct{ a, b string }{
		{"127.0.0.1:1", "127.0.0.2:1"},
		{"[2001:db8:1:2::1]:1", "[2001:db8:1:3::1]:1"},
	} {
		if key(c.a) == key(c.b) {
			t.Errorf("%s and %s count together: %q", c.a, c.b, key(c.a))
		}
	}
}
