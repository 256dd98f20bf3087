package serve

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// lineBoth writes one record through slog's handler and through writeLine, for both formats.
func lineBoth(t *testing.T, json bool, tm time.Time, level slog.Level, msg string, attrs []slog.Attr) (want, got string, ok bool) {
	t.Helper()
	var viaSlog, direct bytes.Buffer
	h := NewLogHandler(&viaSlog, json, slog.LevelDebug)
	rec := slog.NewRecord(tm, level, msg, 0)
	rec.AddAttrs(attrs...)
	if err := h.Handler.Handle(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	ok = NewLogHandler(&direct, json, slog.LevelDebug).writeLine(tm, level, msg, attrs)
	return viaSlog.String(), direct.String(), ok
}

var accessCases = []struct {
	level slog.Level
	attrs []slog.Attr
}{
	{slog.LevelInfo, []slog.Attr{slog.String("method", "GET"), slog.String("path", "/api/public/entries/blog/one"),
		slog.String("route", "GET /api/public/entries/{collection}/{slug}"), slog.Int("status", 200),
		slog.Duration("duration", 1234567*time.Nanosecond), slog.String("request_id", "0a1b2c3d00000001")}},
	{slog.LevelError, []slog.Attr{slog.String("path", "/a b=\"c\"\\d\n\t\x01\x7f"), slog.String("err", ""), slog.Int("status", 500),
		slog.String("x", "caf\u00e9 \u2028 \u2029 \xff \u00a0 <&>"), slog.Duration("d", 0), slog.Int("n", -42)}},
	{slog.LevelWarn, []slog.Attr{slog.String("key with space", "v"), slog.String("k=v", "="), slog.Duration("long", 90*time.Minute)}},
	{slog.LevelInfo + 2, nil},
	// Quoted, every printable ASCII character but '"' and '\\' (quotes alone), then with each.
	{slog.LevelInfo, []slog.Attr{slog.String("all", " !#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}~"), slog.String("q", "a b\""),
		slog.String("bs", "a b\\"), slog.String("del", "a b\x7f")}},
}

// TestAccessLineMatchesSlog: the access line Stack writes directly is byte for byte what slog's
// text and JSON handlers write for the same record.
func TestAccessLineMatchesSlog(t *testing.T) {
	t.Parallel()
	tm := time.Date(2026, 11, 24, 9, 8, 7, 123456789, time.UTC)
	for _, json := range []bool{false, true} {
		for i, tc := range accessCases {
			for _, at := range []time.Time{tm, tm.Truncate(time.Second), tm.In(time.FixedZone("x", 5*3600+1800)), time.Now()} {
				want, got, ok := lineBoth(t, json, at, tc.level, "request", tc.attrs)
				if !ok || got != want {
					t.Errorf("json %v, case %d, %v: wrote %v\n got %q\nwant %q", json, i, at, ok, got, want)
				}
			}
		}
	}
	// Other kinds are left to slog.
	var b bytes.Buffer
	if NewLogHandler(&b, false, slog.LevelInfo).writeLine(tm, slog.LevelInfo, "request", []slog.Attr{slog.Bool("b", true)}) || b.Len() != 0 {
		t.Errorf("a bool attribute was written directly: %q", b.String())
	}
}

func FuzzAccessLine(f *testing.F) {
	f.Add("GET", "/api/x", "route", int64(200), int64(1500), "id", false)
	f.Add("P\"ST", "/a b\x00\xff\u2028", "", int64(-1), int64(-5), "=", true)
	f.Fuzz(func(t *testing.T, method, path, key string, status, dur int64, id string, json bool) {
		if key == "" {
			key = "k"
		}
		attrs := []slog.Attr{slog.String("method", method), slog.String("path", path), slog.String(key, id),
			slog.Int64("status", status), slog.Duration("duration", time.Duration(dur))}
		tm := time.Unix(1_700_000_000, dur%1e9).UTC()
		want, got, ok := lineBoth(t, json, tm, slog.LevelInfo, "request", attrs)
		if !ok || got != want {
			t.Fatalf("wrote %v\n got %q\nwant %q", ok, got, want)
		}
		if strings.Count(got, "\n") != 1 {
			t.Fatalf("not one line: %q", got)
		}
	})
}
