package publicentries

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestMarshalKeepsMarkupButNotScriptBreakouts(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`<p>a &amp; b</p>`, `"<p>a &amp; b</p>"`},
		{`x</script><script>alert(1)</script>`, `"x\u003c/script>\u003cscript>alert(1)\u003c/script>"`},
		{`</SCRIPT >`, `"\u003c/SCRIPT >"`},
		{`<!-- note -->`, `"\u003c!-- note -->"`},
		{`<scr`, `"<scr"`},
		{`a < b > c`, `"a < b > c"`},
		{"line\u2028sep", `"line\u2028sep"`},
	} {
		got, err := marshal(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("marshal(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// FuzzMarshal: whatever the strings, the encoding decodes to the same value, and nothing in it
// can end an HTML script element it is inlined in.
func FuzzMarshal(f *testing.F) {
	for _, s := range []string{"<p>x</p>", "</script>", "<!--", "<ScRiPt", "<", "<<//script"} {
		f.Add(s, "k")
	}
	f.Fuzz(func(t *testing.T, s, k string) {
		in := map[string]any{k: s, "list": []any{s, "<" + s}}
		b, err := marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("%s does not decode: %v", b, err)
		}
		want, _ := json.Marshal(in)
		var back map[string]any
		_ = json.Unmarshal(want, &back)
		if !reflect.DeepEqual(out, back) {
			t.Fatalf("decoded %v, want %v", out, back)
		}
		low := strings.ToLower(string(b))
		if strings.Contains(low, "</script") || strings.Contains(low, "<script") || strings.Contains(low, "<!--") {
			t.Fatalf("%s can break out of a script element", b)
		}
	})
}
