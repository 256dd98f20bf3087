package serve

import (
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// LogHandler is the process log's handler: slog's text or JSON handler, which Stack bypasses for
// its access line, writing the very bytes that handler would (TestAccessLineMatchesSlog) without
// its general machinery, a tenth of a cached read's CPU. Records of other kinds go through slog.
type LogHandler struct {
	slog.Handler
	w    io.Writer
	json bool
}

// NewLogHandler returns the handler writing to w: JSON when json is set, else text, for records
// at level and above.
func NewLogHandler(w io.Writer, json bool, level slog.Leveler) *LogHandler {
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if json {
		h = slog.NewJSONHandler(w, opts)
	}
	return &LogHandler{Handler: h, w: w, json: json}
}

var lineBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// writeLine writes a record of msg with attrs as one line and reports whether it could: false
// (nothing written) for an attribute of a kind other than string, integer or duration, or a
// time slog would not format as RFC 3339, which the caller then logs through slog.
func (h *LogHandler) writeLine(t time.Time, level slog.Level, msg string, attrs []slog.Attr) bool {
	if y := t.Year(); y < 0 || y >= 10000 {
		return false
	}
	for _, a := range attrs {
		switch a.Value.Kind() {
		case slog.KindString, slog.KindInt64, slog.KindDuration:
		default:
			return false
		}
		if a.Key == "" { // slog drops some such attributes: leave them to it
			return false
		}
	}
	bp := lineBufs.Get().(*[]byte)
	b := (*bp)[:0]
	t = t.Round(0)
	if h.json {
		b = append(b, `{"time":"`...)
		b = t.AppendFormat(b, time.RFC3339Nano)
		b = append(b, `","level":`...)
		b = appendJSONString(b, level.String())
		b = append(b, `,"msg":`...)
		b = appendJSONString(b, msg)
		for _, a := range attrs {
			b = append(b, ',')
			b = appendJSONString(b, a.Key)
			b = append(b, ':')
			switch v := a.Value; v.Kind() {
			case slog.KindString:
				b = appendJSONString(b, v.String())
			case slog.KindInt64:
				b = strconv.AppendInt(b, v.Int64(), 10)
			case slog.KindDuration:
				b = strconv.AppendInt(b, int64(v.Duration()), 10)
			}
		}
		b = append(b, "}\n"...)
	} else {
		b = append(b, "time="...)
		b = appendMillis(b, t)
		b = append(b, " level="...)
		b = appendTextString(b, level.String())
		b = append(b, " msg="...)
		b = appendTextString(b, msg)
		for _, a := range attrs {
			b = append(b, ' ')
			b = appendTextString(b, a.Key)
			b = append(b, '=')
			switch v := a.Value; v.Kind() {
			case slog.KindString:
				b = appendTextString(b, v.String())
			case slog.KindInt64:
				b = strconv.AppendInt(b, v.Int64(), 10)
			case slog.KindDuration:
				b = append(b, v.Duration().String()...)
			}
		}
		b = append(b, '\n')
	}
	_, _ = h.w.Write(b)
	if cap(b) <= 16<<10 {
		*bp = b
		lineBufs.Put(bp)
	}
	return true
}

// appendMillis formats t as RFC 3339 with exactly three fractional digits, as slog's text
// handler does.
func appendMillis(b []byte, t time.Time) []byte {
	const prefixLen = len("2006-01-02T15:04:05.000")
	n := len(b)
	// RFC3339Nano trims trailing zeros: a tenth of a millisecond added keeps four digits, of
	// which the fourth is then dropped.
	b = t.Truncate(time.Millisecond).Add(time.Millisecond/10).AppendFormat(b, time.RFC3339Nano)
	return append(b[:n+prefixLen], b[n+prefixLen+1:]...)
}

// printable are the ASCII bytes slog leaves unescaped in JSON (DEL included) and unquoted in text.
func printable(c byte) bool { return c >= 0x20 && c < utf8.RuneSelf && c != '"' && c != '\\' }

// appendTextString writes s bare, or quoted (Go syntax) when slog's text handler quotes it:
// when empty, or holding a space, '=', '"', a control character or a character that is not a
// printable, non-space rune.
func appendTextString(b []byte, s string) []byte {
	quote := len(s) == 0
	for i := 0; i < len(s) && !quote; {
		c := s[i]
		if c < utf8.RuneSelf {
			quote = c != '\\' && (c == ' ' || c == '=' || !printable(c))
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		quote = r == utf8.RuneError || unicode.IsSpace(r) || !unicode.IsPrint(r)
		i += size
	}
	if !quote {
		return append(b, s...)
	}
	// Printable ASCII but for '"' and '\\' (a route such as "GET /api/..."): quoting adds the
	// quotes alone, without strconv's second pass over every rune.
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return strconv.AppendQuote(b, s)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendJSONString writes s as a JSON string, escaped as slog's JSON handler escapes it.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if printable(c) {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(append(b, s[start:i]...), `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(append(b, s[start:i]...), `\u202`...)
			b = append(b, hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
