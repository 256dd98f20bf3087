package query

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// slowDate is parseDate without its fast path.
func slowDate(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

var dateSeeds = []string{
	"2020-01-01", "2023-11-21T09:18:06.707Z", "2024-02-29", "2023-02-29", "2000-02-29", "1900-02-29",
	"2020-04-31", "2020-12-31T23:59:59Z", "2020-12-31T24:00:00Z", "2020-12-31T23:60:00Z", "2020-12-31T23:59:60Z",
	"2020-00-10", "2020-13-10", "2020-01-00", "2020-01-32", "2020-01-01T00:00:00.Z", "2020-01-01T00:00:00.1Z",
	"2020-01-01T00:00:00.123456789Z", "2020-01-01T00:00:00.1234567891Z", "2020-01-01T00:00:00+02:00",
	"2020-01-01T00:00:00", "2020-01-01 10:00:00", "2020-01-01T1:00:00Z", "2020-01-01t00:00:00Z",
	"2020-01-01T00:00:00z", "0000-01-01", "9999-12-31T23:59:59.999Z", "2020-01-01x", "2020-01-01T00:00:00.12a4Z",
	"2020-06-30", "2020-06-31", "2020-07-31", "2020-09-31", "2020-11-30", "2020-11-31",
}

// TestFastDateAgreesWithTimeParse: the fast path gives the same instant as time.Parse whenever
// it answers, and answers the common forms.
func TestFastDateAgreesWithTimeParse(t *testing.T) {
	for _, s := range dateSeeds {
		checkDate(t, s)
	}
	for _, s := range []string{"2020-01-01", "2023-11-21T09:18:06.707Z", "2024-02-29", "2020-12-31T23:59:59Z"} {
		if _, ok := fastDate(s); !ok {
			t.Errorf("fastDate(%q) left it to time.Parse", s)
		}
	}
}

func checkDate(t *testing.T, s string) {
	t.Helper()
	got, ok := parseDate(s)
	want, wantOK := slowDate(s)
	if len(s) < 10 || s[4] != '-' || s[7] != '-' || !digits(s[0:4]) || !digits(s[5:7]) || !digits(s[8:10]) {
		wantOK = false // parseDate's first check, before any layout
	}
	if ok != wantOK || (ok && !got.Equal(want)) {
		t.Fatalf("parseDate(%q) = %v %v, time.Parse gives %v %v", s, got, ok, want, wantOK)
	}
}

func FuzzParseDate(f *testing.F) {
	for _, s := range dateSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkDate(t, s) })
}

var fieldRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]{0,99}$`)

// FuzzValidField: the hand-written check accepts exactly what the documented pattern does.
func FuzzValidField(f *testing.F) {
	for _, s := range []string{"", "a", "_", "1a", "a1", "a.b-c_d", "-a", ".a", "a b", "é", strings.Repeat("a", 100), strings.Repeat("a", 101), "a\n", "a$"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := ValidField(s), fieldRE.MatchString(s); got != want {
			t.Fatalf("ValidField(%q) = %v, the pattern says %v", s, got, want)
		}
	})
}
