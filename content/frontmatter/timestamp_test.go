package frontmatter

import "testing"

var timestampCases = []string{
	"2026-05-31T20:00:00.000Z", "2026-05-31", "2026-5-31", "2026-05-31T20:00:00Z", "2026-05-31t20:00:00Z",
	"2026-05-31T20:00:00+02:00", "2026-05-31T20:00:00-05:30", "2026-05-31T20:00:00.123456789Z",
	"2026-05-31T20:00:00", "2026-05-31 20:00:00", "2026-05-31 20:00:00.5", "2026-05-31  20:00:00",
	"2026-05-31T20:00:00 Z", "2026-05-31T20:00:00.Z", "2026-02-30", "2026-13-01", "2026-00-10",
	"2026-05-31T24:00:00Z", "2026-05-31T20:60:00Z", "2026-05-31T20:00:00+25:00", "2026-05-31T20:00:00.1234567890Z",
	"2026-05-31T20:00:00+0200", "2026-05-31T2:0:0Z", "12026-05-31", "202-05-31", "2026/05/31", "2026-",
	"2026-05-31x", " 2026-05-31", "2026-05-31 ", "2026-05-31 # c", "2026-05-31: x", "", "2026", "x2026-05-31",
	"2024-02-29", "2023-02-29", "0000-01-01", "9999-12-31T23:59:59.999Z",
}

// TestIsTimestampMatchesYAML: the fast answer for written-out dates is yaml.v3's own.
func TestIsTimestampMatchesYAML(t *testing.T) {
	t.Parallel()
	for _, s := range timestampCases {
		if got, want := isTimestamp(s), isTimestampYAML(s); got != want {
			t.Errorf("isTimestamp(%q) = %v, yaml.v3 says %v", s, got, want)
		}
	}
	for _, s := range []string{"2026-05-31T20:00:00.000Z", "2026-06-01", "2026-05-31T20:00:00+02:00"} {
		if !isTimestamp(s) {
			t.Errorf("isTimestamp(%q) = false, want true", s)
		}
	}
}

func FuzzIsTimestampMatchesYAML(f *testing.F) {
	for _, s := range timestampCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isTimestamp(s), isTimestampYAML(s); got != want {
			t.Errorf("isTimestamp(%q) = %v, yaml.v3 says %v", s, got, want)
		}
	})
}
