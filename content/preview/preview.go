// Package preview signs and verifies draft-preview tokens: short-lived capabilities to read one
// entry's current draft, for a frontend that renders previews. A token is bound to one
// collection and slug and an expiry by an HMAC-SHA256 with a per-site secret, so it cannot be
// forged, extended or reused for another entry; nothing is stored per token. The secret is 32
// random bytes in storage/preview.key (mode 0600), created on first need by a writer; deleting
// it invalidates every outstanding preview token. A read-only deployment reads the writer's.
package preview

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"cms/content"
	"cms/content/internal/atomicfile"
)

// KeyFile is where the secret lives, relative to the site folder.
const KeyFile = "storage/preview.key"

// Bounds of a token's lifetime.
const (
	DefaultTTL = time.Hour
	MaxTTL     = 24 * time.Hour
	maxToken   = 128
)

// sigEncoding spells signatures; Strict refuses the other spellings of the last character.
var sigEncoding = base64.RawURLEncoding.Strict()

// Signer issues and checks preview tokens of one site.
type Signer struct {
	root     *os.Root
	readOnly bool
	now      func() time.Time

	mu  sync.Mutex
	key []byte // nil until read or created
}

// New returns a signer over the site folder root. now defaults to time.Now.
func New(root *os.Root, readOnly bool, now func() time.Time) *Signer {
	if now == nil {
		now = time.Now
	}
	return &Signer{root: root, readOnly: readOnly, now: now}
}

// secret returns the site's key, reading it, or creating it when create is set and the
// deployment is writable. A missing key on a read-only deployment is retried on the next call.
func (s *Signer) secret(create bool) ([]byte, error) {
	const op = "preview.secret"
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.key != nil {
		return s.key, nil
	}
	key, err := s.read()
	if errors.Is(err, fs.ErrNotExist) && create && !s.readOnly {
		var raw [32]byte
		if _, err := rand.Read(raw[:]); err != nil {
			return nil, content.Internalf(op, KeyFile, err)
		}
		if err := s.root.MkdirAll(path.Dir(KeyFile), 0o700); err != nil {
			return nil, content.Internalf(op, KeyFile, err)
		}
		err = atomicfile.Write(s.root, KeyFile, []byte(hex.EncodeToString(raw[:])+"\n"), atomicfile.Options{Perm: 0o600, Exclusive: true})
		if err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, content.Internalf(op, KeyFile, err)
		}
		key, err = s.read() // ours, or the one a racing writer made first
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &content.Error{Kind: content.Unavailable, Op: op, Message: "Previews are not set up yet: no preview key"}
	}
	if err != nil {
		return nil, content.Internalf(op, KeyFile, err)
	}
	s.key = key
	return key, nil
}

func (s *Signer) read() ([]byte, error) {
	f, err := s.root.Open(KeyFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 256))
	if err != nil {
		return nil, err
	}
	key, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(key) < 32 {
		return nil, fmt.Errorf("%s must hold at least 32 bytes as hex", KeyFile)
	}
	return key, nil
}

func mac(key []byte, collection, slug string, exp int64) []byte {
	h := hmac.New(sha256.New, key)
	io.WriteString(h, "cms-preview-v1\x00"+collection+"\x00"+slug+"\x00"+strconv.FormatInt(exp, 10))
	return h.Sum(nil)
}

// Sign returns a token for the entry collection/slug, valid for ttl (0 = DefaultTTL, at most
// MaxTTL), and when it expires.
func (s *Signer) Sign(collection, slug string, ttl time.Duration) (string, time.Time, error) {
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	ttl = min(ttl, MaxTTL)
	key, err := s.secret(true)
	if err != nil {
		return "", time.Time{}, err
	}
	exp := s.now().Add(ttl).Truncate(time.Second)
	sig := sigEncoding.EncodeToString(mac(key, collection, slug, exp.Unix()))
	return "v1." + strconv.FormatInt(exp.Unix(), 10) + "." + sig, exp.UTC(), nil
}

// Verify returns nil when token is a valid, unexpired preview token for exactly the entry
// collection/slug, and an Unauthenticated error otherwise (Unavailable when this deployment has
// no key yet). The website and the public API both call it before showing a draft.
func (s *Signer) Verify(token, collection, slug string) error {
	const op = "preview.Verify"
	bad := content.Unauthenticatedf(op, "Invalid or expired preview token")
	if len(token) > maxToken {
		return bad
	}
	ver, rest, ok1 := strings.Cut(token, ".")
	expS, sigS, ok2 := strings.Cut(rest, ".")
	if !ok1 || !ok2 || ver != "v1" {
		return bad
	}
	// Only the canonical spelling of a token is accepted: one token, one string.
	exp, err := strconv.ParseInt(expS, 10, 64)
	if err != nil || strconv.FormatInt(exp, 10) != expS || !s.now().Before(time.Unix(exp, 0)) {
		return bad
	}
	sig, err := sigEncoding.DecodeString(sigS)
	if err != nil {
		return bad
	}
	key, err := s.secret(false)
	if err != nil {
		return err
	}
	if !hmac.Equal(sig, mac(key, collection, slug, exp)) {
		return bad
	}
	return nil
}
