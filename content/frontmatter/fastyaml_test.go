package frontmatter

import (
	"math"
	"strconv"
	"testing"

	"cms/content"
)

// fastYAMLStrings are keys and values at the edges of what appendFastYAML takes.
var fastYAMLStrings = []string{
	"", "a", "Visitor 12", "visitor12@example.com", "+1 555 0100", "https://example.com/", "general",
	"Hello, this is message 7. Please ignore it.", "true", "True", "TRUE", "false", "null", "NULL", "Null",
	"yes", "no", "on", "off", "y", "n", "~", "nan", "inf", "Infinity", ".inf", ".nan", "-.inf", "<<",
	"12345", "0123", "09", "0x1F", "0o17", "0b101", "1_000", "1e3", "1.5", "-1", "+1", "+12", "+1.5", "+1 2",
	"123 456", "1,5", "1:20", "1:20:30", "2026-06-01", "2026-05-31T20:00:00.000Z", "2026-02-30", "2026-06-01 x",
	"2026-06-01T10:00", "2026-1-2", "12026-06-01", "a: b", "a:b", "a:", "a #b", "a#b", "#a", "a ", " a", "a  b",
	"-a", "- a", "-", "--- a", "...", ".a", "?a", "? a", ":a", ",a", "[a]", "{a}", "&a", "*a", "!a", "|a", ">a",
	"'a", "\"a", "%a", "@a", "`a", "a'b", "a\"b", "a\\b", "a[b]", "a{b}", "a,b", "a\tb", "a\nb", "a\n", "\n",
	"é", "aé", "a\u00a0", "a\u2028b", "a\x7fb", "a\x00b", "x" + string(make([]byte, 130)),
	"1e999", "99999999999999999999", "0b1", "0b12", "-0b1", "0o7", "0o8", "0x", "0xg", "1__0", "+0x1p-2", "0x1p-2",
	"019ab8f2-7c1e-7a3b-9c2d-0123456789ab", "0b8f2c1e-7c1e-7a3b-9c2d-0123456789ab", "+inf", "+nan", "1e5x",
	"k_with_underscore", "k-with-dash", "K9", "a b c d e f g h i j k l m n o p q r s t u v w x y z 0 1 2 3 4 5 6 7 8 9 and on",
}

// fastYAMLValues are the values the generated maps hold, beside the strings.
var fastYAMLValues = []any{
	nil, true, false, int64(0), int64(-7), int64(math.MaxInt64), int64(math.MinInt64), 0.0, math.Copysign(0, -1),
	1.5, -2.25, 1e21, 1e-7, 5e-324, math.MaxFloat64, 100.0, math.NaN(), math.Inf(1), math.Inf(-1), 3, []string{"x"},
}

// genFastYAMLMap builds a map from fuzz bytes: each byte picks a key, a value, a nested map, a list.
func genFastYAMLMap(b []byte, depth int) (*content.Map, []byte) {
	m := content.NewMap(4)
	for len(b) >= 2 {
		op, arg := b[0], int(b[1])
		b = b[2:]
		if op == 0xff {
			break // end of this map
		}
		key := fastYAMLStrings[arg%len(fastYAMLStrings)]
		if op%3 == 0 {
			key = "k" + strconv.Itoa(arg)
		}
		switch op % 8 {
		case 0, 1, 2:
			m.Set(key, fastYAMLStrings[(arg+int(op))%len(fastYAMLStrings)])
		case 3, 4:
			m.Set(key, fastYAMLValues[(arg+int(op))%len(fastYAMLValues)])
		case 5:
			if depth < 3 {
				var sub *content.Map
				sub, b = genFastYAMLMap(b, depth+1)
				m.Set(key, sub)
			}
		case 6:
			var list []any
			for i := 0; i < arg%4; i++ {
				if i%2 == 0 {
					list = append(list, fastYAMLStrings[(arg*7+i)%len(fastYAMLStrings)])
				} else {
					list = append(list, fastYAMLValues[(arg+i)%len(fastYAMLValues)])
				}
			}
			if list == nil {
				list = []any{}
			}
			m.Set(key, list)
		case 7:
			m.Set(key, fastYAMLStrings[arg%len(fastYAMLStrings)]+fastYAMLStrings[int(op)%len(fastYAMLStrings)])
		}
	}
	return m, b
}

// checkFastYAML asserts that whatever appendFastYAML writes is byte for byte what yaml.v3 writes.
func checkFastYAML(t *testing.T, m *content.Map) bool {
	t.Helper()
	if m.Len() == 0 {
		return false
	}
	fast, ok := appendFastYAML(nil, m, 0)
	if !ok {
		return false
	}
	slow, err := marshalYAMLv3(m)
	if err != nil {
		t.Fatalf("yaml.v3 refused what the fast path wrote:\n%s\nerror: %v", fast, err)
	}
	if string(fast) != string(slow) {
		t.Fatalf("fast path differs from yaml.v3:\nfast:\n%s\nyaml.v3:\n%s", fast, slow)
	}
	return true
}

// TestFastYAMLMatchesYAML: every key and value of the tables, alone and nested, in a list,
// encodes as yaml.v3 encodes it; a submission like the bench's takes the fast path.
func TestFastYAMLMatchesYAML(t *testing.T) {
	t.Parallel()
	taken := 0
	for _, s := range fastYAMLStrings {
		for _, m := range []*content.Map{single("value", s), single(s, "value"), single("data", single("f", s)),
			single("list", []any{s, int64(1)}), single("k", s+" "+s)} {
			if checkFastYAML(t, m) {
				taken++
			}
		}
	}
	for _, v := range fastYAMLValues {
		for _, m := range []*content.Map{single("v", v), single("data", single("f", v)), single("l", []any{v})} {
			if checkFastYAML(t, m) {
				taken++
			}
		}
	}
	if taken < 200 {
		t.Errorf("the fast path took only %d of the table's maps", taken)
	}

	data := content.NewMap(10)
	for _, kv := range [][2]any{{"name", "Visitor 12"}, {"email", "visitor12@example.com"}, {"phone", "+1 555 0100"},
		{"company", "Example Ltd"}, {"website", "https://example.com/"}, {"topic", "support"}, {"budget", int64(1012)},
		{"preferred_date", "2026-06-01"}, {"newsletter", true}, {"message", "Hello, this is benchmark message number 12. Please ignore it."},
		{"zip", "01234"}, {"score", 2.5}, {"nothing", nil}, {"tags", []any{"a", "b"}}} {
		data.Set(kv[0].(string), kv[1])
	}
	sub := content.NewMap(4)
	sub.Set("id", "019ab8f2-7c1e-7a3b-9c2d-0123456789ab")
	sub.Set("form", "contact")
	sub.Set("submitted_at", "2026-11-24T07:20:00.123Z")
	sub.Set("data", data)
	if !checkFastYAML(t, sub) {
		t.Error("a submission like the bench's did not take the fast path")
	}
}

func single(k string, v any) *content.Map {
	m := content.NewMap(1)
	m.Set(k, v)
	return m
}

func FuzzFastYAMLMatchesYAML(f *testing.F) {
	f.Add([]byte{0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 0, 7, 0xff, 0, 6, 5, 7, 9})
	f.Add([]byte{1, 10, 2, 20, 4, 30, 6, 3, 5, 1, 1, 40, 5, 2, 2, 50, 0xff, 0, 0xff, 0, 3, 60})
	f.Add([]byte{6, 7, 6, 11, 7, 12, 7, 13, 1, 99, 2, 100, 3, 101, 4, 102})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, _ := genFastYAMLMap(b, 0)
		checkFastYAML(t, m)
	})
}

// FuzzFastYAMLString: any text as a key or a value, at the top, nested or in a list.
func FuzzFastYAMLString(f *testing.F) {
	for _, s := range fastYAMLStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range []*content.Map{single("value", s), single(s, "value"), single("data", single("f", s)),
			single("list", []any{s, s})} {
			checkFastYAML(t, m)
		}
	})
}
