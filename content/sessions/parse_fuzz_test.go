package sessions

import (
	"errors"
	"testing"
)

// FuzzParse feeds arbitrary bytes to the session-file parser: it must never panic, and anything
// it accepts has the fields validation relies on.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"id":"a","userId":"b","expiresAt":"2026-06-01T00:00:00.000Z"}`))
	f.Add([]byte(`{"id":"a","userId":"b","expiresAt":"2026-06-01T00:00:00Z","createdAt":"x"}`))
	f.Add([]byte(`{"id":1}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(``))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := parse(b)
		if err != nil {
			if !errors.Is(err, errMalformed) {
				t.Fatalf("error %v does not wrap errMalformed", err)
			}
			return
		}
		if s.ID == "" || s.UserID == "" || s.ExpiresAt.IsZero() && len(b) == 0 {
			t.Fatalf("accepted incomplete session %+v from %q", s, b)
		}
	})
}
