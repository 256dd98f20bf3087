package bindec

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

var errBad = errors.New("bad data")

func TestDecoder(t *testing.T) {
	t.Parallel()
	var b []byte
	b = binary.AppendUvarint(b, 300)
	b = binary.AppendVarint(b, -7)
	b = append(b, 9)
	b = binary.AppendUvarint(b, 3)
	b = append(b, "abc"...)
	d := Decoder{S: string(b), Corrupt: errBad}
	if u, v, c, s := d.Uvarint(), d.Varint(), d.Byte(), d.Str(); u != 300 || v != -7 || c != 9 || s != "abc" || d.Err != nil || d.Off != len(b) {
		t.Fatalf("read %d %d %d %q, err %v at %d", u, v, c, s, d.Err, d.Off)
	}

	for name, c := range map[string]struct {
		data string
		read func(*Decoder)
		want string
	}{
		"truncated number":   {"\x80", func(d *Decoder) { d.Uvarint() }, "truncated number"},
		"number overflows":   {strings.Repeat("\xff", 9) + "\x02", func(d *Decoder) { d.Uvarint() }, "number overflows"},
		"eleven bytes":       {strings.Repeat("\x80", 10) + "\x01", func(d *Decoder) { d.Uvarint() }, "number overflows"},
		"truncated byte":     {"", func(d *Decoder) { d.Byte() }, "truncated"},
		"count too large":    {"\x05ab", func(d *Decoder) { d.Count(1) }, "count larger than the data"},
		"truncated string":   {"\x05ab", func(d *Decoder) { d.Str() }, "truncated string"},
		"first failure kept": {"", func(d *Decoder) { d.Byte(); d.Fail("later") }, "truncated at byte 0"},
	} {
		d := Decoder{S: c.data, Corrupt: errBad}
		c.read(&d)
		if !errors.Is(d.Err, errBad) || !strings.Contains(d.Err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", name, d.Err, c.want)
		}
		if d.Uvarint() != 0 || d.Str() != "" {
			t.Errorf("%s: reads after a failure return values", name)
		}
	}
}
