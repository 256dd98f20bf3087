package content

import (
	"encoding/hex"
	"hash/crc32"
)

// VersionLen is the length of a Version: 16 hex digits.
const VersionLen = 16

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// VersionOf returns the Version of an entry file's raw text: its CRC-32C and its CRC-32 (IEEE)
// in hex. Both run in hardware, a tenth of SHA-256's time, and together they tell two texts
// apart but for one chance in 2^64, and always for any change of up to 32 consecutive bits.
// A Version is no defence against somebody crafting a collision; the SHA-256 contentHash that
// guards updates is (Entry.Hash). The same text has the same Version in every process, so
// ETags agree across instances.
func VersionOf(raw []byte) string {
	var b [VersionLen]byte
	PutVersion(&b, raw)
	return string(b[:])
}

// PutVersion writes VersionOf(raw) into dst without allocating.
func PutVersion(dst *[VersionLen]byte, raw []byte) {
	c, i := crc32.Checksum(raw, castagnoli), crc32.ChecksumIEEE(raw)
	sum := [8]byte{byte(c >> 24), byte(c >> 16), byte(c >> 8), byte(c), byte(i >> 24), byte(i >> 16), byte(i >> 8), byte(i)}
	hex.Encode(dst[:], sum[:])
}
