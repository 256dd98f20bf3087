// Package bindec reads the varint-framed binary formats of the entry index and full-text
// snapshots, bounds-checked: truncated or corrupt input becomes Err (wrapping Corrupt), never a
// panic or an allocation larger than the input can hold.
package bindec

import "fmt"

// Decoder reads S from Off. After the first failure every read returns a zero value and Err
// stays the first failure.
type Decoder struct {
	S       string
	Off     int
	Err     error
	Corrupt error // wrapped by every failure, so callers can tell corruption from other errors
}

// Fail records what is wrong at the current offset, if nothing was before, and returns Err.
func (d *Decoder) Fail(what string) error {
	if d.Err == nil {
		d.Err = fmt.Errorf("%w: %s at byte %d", d.Corrupt, what, d.Off)
	}
	return d.Err
}

// Uvarint reads an unsigned varint (encoding/binary's format), refusing one over 64 bits.
func (d *Decoder) Uvarint() uint64 {
	if d.Err != nil {
		return 0
	}
	var v uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if d.Off >= len(d.S) {
			d.Fail("truncated number")
			return 0
		}
		c := d.S[d.Off]
		d.Off++
		if c < 0x80 {
			if shift == 63 && c > 1 {
				break
			}
			return v | uint64(c)<<shift
		}
		v |= uint64(c&0x7f) << shift
	}
	d.Fail("number overflows")
	return 0
}

// Varint reads a zig-zag signed varint.
func (d *Decoder) Varint() int64 {
	u := d.Uvarint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

// Byte reads one byte.
func (d *Decoder) Byte() byte {
	if d.Err != nil {
		return 0
	}
	if d.Off >= len(d.S) {
		d.Fail("truncated")
		return 0
	}
	d.Off++
	return d.S[d.Off-1]
}

// Count reads an element count and checks it against the bytes left (each element takes at
// least min bytes), so a corrupt count cannot trigger a huge allocation.
func (d *Decoder) Count(min int) int {
	n := d.Uvarint()
	if d.Err == nil && n > uint64((len(d.S)-d.Off)/min) {
		d.Fail("count larger than the data")
		return 0
	}
	return int(n)
}

// Str reads a length-prefixed string, sharing S's memory.
func (d *Decoder) Str() string {
	n := d.Uvarint()
	if d.Err != nil {
		return ""
	}
	if n > uint64(len(d.S)-d.Off) {
		d.Fail("truncated string")
		return ""
	}
	s := d.S[d.Off : d.Off+int(n)]
	d.Off += int(n)
	return s
}
