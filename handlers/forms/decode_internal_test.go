package forms

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"cms/content"
	"cms/handlers/web"
)

// flatJSONCases are submission bodies at the edges of what decodeFlatJSON takes.
var flatJSONCases = []string{
	`{}`, ` { } `, `{"a":"b"}`, `{"name":"Visitor 1","email":"v1@example.com","budget":1001,"newsletter":true,"x":null,"f":false}`,
	`{"n":1.5,"e":1e3,"neg":-0,"big":12345678901234567890,"tiny":1E-400,"exp":2.5e+10}`,
	`{"l":[],"m":["a",1,true,null,2.5],"s":[ "x" , "y" ]}`, `{"dup":1,"other":2,"dup":3}`,
	`{"esc":"a\"b"}`, `{"u":"\u00e9"}`, `{"nested":{"a":1}}`, `{"ll":[[1]]}`, `{"lo":[{"a":1}]}`,
	`{"é":"ü — 日本 \u2028"}`, "{\"raw\":\"a\u2028b\"}", "{\"bad\":\"\xff\"}", "{\"bad\xfe\":1}",
	`{"html":"<b>&amp;</b>"}`, "{\t\"a\"\n:\r\"b\" }", `{"":""}`, `{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k2":"again"}`,
}

// TestFlatJSONMatchesMap: the flat decoder gives what content.Map's decoder gives, and takes the
// common submission bodies.
func TestFlatJSONMatchesMap(t *testing.T) {
	t.Parallel()
	taken := 0
	for _, c := range flatJSONCases {
		if checkFlatJSON(t, []byte(c)) {
			taken++
		}
	}
	if taken < 10 {
		t.Errorf("the flat decoder took only %d of the cases", taken)
	}
	for _, c := range []string{flatJSONCases[3], flatJSONCases[5], flatJSONCases[6]} {
		if _, ok := decodeFlatJSON([]byte(c)); !ok {
			t.Errorf("the flat decoder refused %s", c)
		}
	}
}

func checkFlatJSON(t *testing.T, b []byte) bool {
	t.Helper()
	trimmed := bytes.TrimSpace(b)
	if !json.Valid(trimmed) || len(trimmed) == 0 || trimmed[0] != '{' {
		return false
	}
	fast, ok := decodeFlatJSON(trimmed)
	if !ok {
		return false
	}
	slow := content.NewMap(8)
	if err := slow.UnmarshalJSON(trimmed); err != nil {
		t.Fatalf("%q: the flat decoder took what content.Map refuses: %v", b, err)
	}
	if !reflect.DeepEqual(fast.Keys(), slow.Keys()) {
		t.Fatalf("%q: keys %q, content.Map has %q", b, fast.Keys(), slow.Keys())
	}
	for _, k := range slow.Keys() {
		if f, s := fast.Value(k), slow.Value(k); !reflect.DeepEqual(f, s) {
			t.Fatalf("%q: %q = %#v, content.Map has %#v", b, k, f, s)
		}
	}
	return true
}

func FuzzFlatJSONMatchesMap(f *testing.F) {
	for _, c := range flatJSONCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkFlatJSON(t, b)
	})
}

// TestSubmissionJSONMatchesMarshal: the answer to a stored submission is what json.Marshal writes.
func TestSubmissionJSONMatchesMarshal(t *testing.T) {
	t.Parallel()
	strs := []string{"", "019ab8f2-7c1e-7a3b-9c2d-0123456789ab", "contact", "2026-11-24T07:20:00.123Z", `a"b\c`,
		"<script>&</script>", "é日本", "a\u2028b\u2029", "\x00\x1f\x7f", "\xff", "tab\there\nline"}
	for i, s := range strs {
		data, _ := decodeFlatJSON([]byte(`{"name":"Visitor 1","n":2.5,"l":["<", 1],"ok":true,"z":null}`))
		data.Set("s", s)
		data.Set(s, s)
		data.Set("floats", []any{math.NaN(), math.Inf(-1), 1e21, 1e-7, math.Copysign(0, -1), 123456789.125, float64(i)})
		data.Set("ints", []any{int64(-1 << 63), int64(i), int(7)})
		if i%3 == 0 {
			data.Set("nested", single(s))
		}
		for _, sub := range []*content.Submission{
			{ID: s, Form: strs[(i+1)%len(strs)], SubmittedAt: strs[(i+2)%len(strs)], Data: data},
			{ID: "x", Form: s, SubmittedAt: s, Data: content.NewMap(0)},
			{ID: "x", Form: "f", SubmittedAt: s},
		} {
			want, err := json.Marshal(web.Data{Data: sub})
			if err != nil {
				t.Fatal(err)
			}
			got, err := submissionJSON(sub)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("submissionJSON:\n%s\njson.Marshal:\n%s", got, want)
			}
		}
	}
}

func single(s string) *content.Map {
	m := content.NewMap(1)
	m.Set(s, []any{s, int64(1)})
	return m
}
