package content_test

import (
	"bytes"
	"regexp"
	"testing"

	"cms/content"
)

func TestVersionOf(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ text, want string }{
		// The check values of CRC-32C and CRC-32 (IEEE): 0xE3069283 and 0xCBF43926.
		{"123456789", "e3069283cbf43926"},
		{"", "0000000000000000"},
	} {
		if got := content.VersionOf([]byte(tt.text)); got != tt.want {
			t.Errorf("VersionOf(%q) = %s, want %s", tt.text, got, tt.want)
		}
	}
	// Every single-bit change, and a swap of two lines, makes another version.
	raw := []byte("---\ntitle: Hello\nstatus: published\n---\nBody text.\n")
	v := content.VersionOf(raw)
	if !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(v) || len(v) != content.VersionLen {
		t.Fatalf("VersionOf = %q, want %d lower-case hex digits", v, content.VersionLen)
	}
	seen := map[string]bool{v: true}
	for i := range raw {
		for bit := range 8 {
			x := bytes.Clone(raw)
			x[i] ^= 1 << bit
			w := content.VersionOf(x)
			if seen[w] {
				t.Fatalf("flipping bit %d of byte %d gives a version already seen (%s)", bit, i, w)
			}
			seen[w] = true
		}
	}
	swapped := []byte("---\nstatus: published\ntitle: Hello\n---\nBody text.\n")
	if content.VersionOf(swapped) == v {
		t.Error("swapping two lines keeps the version")
	}
	var b [content.VersionLen]byte
	if content.PutVersion(&b, raw); string(b[:]) != v {
		t.Errorf("PutVersion = %s, VersionOf = %s", b[:], v)
	}
}
