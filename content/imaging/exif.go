package imaging

import "encoding/binary"

// maxHead is how much of a JPEG file Orientation is given: the markers before the image data,
// where an APP1 segment (at most 64 KiB) sits after at most a few others.
const maxHead = 256 << 10

// maxSegments bounds the JPEG segments Orientation walks before giving up.
const maxSegments = 64

// Orientation returns the EXIF orientation (1..8) of a JPEG file given its first bytes, or 1 (as
// stored) when there is none or the data is malformed. It reads the orientation tag (0x0112) of
// IFD0 of the first APP1 "Exif" segment; every offset is checked against the data, so any input
// is safe.
func Orientation(head []byte) int {
	if len(head) < 4 || head[0] != 0xFF || head[1] != 0xD8 {
		return 1
	}
	i := 2
	for range maxSegments {
		// A marker is 0xFF (possibly repeated as fill) and a code.
		start := i
		for i < len(head) && head[i] == 0xFF {
			i++
		}
		if i == start || i >= len(head) {
			return 1
		}
		code := head[i]
		i++
		switch {
		case code == 0xD8 || code == 0x01 || (code >= 0xD0 && code <= 0xD7):
			continue // no length
		case code == 0xDA || code == 0xD9:
			return 1 // image data or end: no EXIF before it
		}
		if i+2 > len(head) {
			return 1
		}
		n := int(binary.BigEndian.Uint16(head[i:]))
		if n < 2 || i+n > len(head) {
			return 1
		}
		seg := head[i+2 : i+n]
		i += n
		if code == 0xE1 && len(seg) >= 6 && string(seg[:6]) == "Exif\x00\x00" {
			return tiffOrientation(seg[6:])
		}
	}
	return 1
}

// tiffOrientation reads the orientation tag of IFD0 of a TIFF structure.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 1
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 1
	}
	if bo.Uint16(t[2:]) != 42 {
		return 1
	}
	off := int64(bo.Uint32(t[4:]))
	if off < 8 || off+2 > int64(len(t)) {
		return 1
	}
	count := int64(bo.Uint16(t[off:]))
	entries := off + 2
	if entries+count*12 > int64(len(t)) {
		return 1
	}
	for k := range count {
		e := t[entries+k*12 : entries+k*12+12]
		if bo.Uint16(e) != 0x0112 {
			continue
		}
		// Type SHORT (3), one value, stored in the first two bytes of the value field.
		if bo.Uint16(e[2:]) != 3 || bo.Uint32(e[4:]) != 1 {
			return 1
		}
		if o := int(bo.Uint16(e[8:])); o >= 1 && o <= 8 {
			return o
		}
		return 1
	}
	return 1
}
