package sessions

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"cms/content"
	"cms/content/internal/atomicfile"
)

// API tokens are named, scoped (one role), expiring service tokens for server-side frontends and
// CI. A token reads "cms_tok_" + a 16-hex-digit id + "_" + 64 hex digits of secret; only its
// SHA-256 is stored, in one file of the sessions folder (tokens/api-tokens.json, mode 0600, a
// folder the session sweep never reads). The id is public: it names the token in lists and
// logs. The prefix tells a token from a session token at a glance, in a request or a leak scan.
const (
	APITokenPrefix = "cms_tok_"
	// MaxAPITokens bounds the file (and what a validation may scan).
	MaxAPITokens = 1000
	// MaxAPITokenLifetime bounds how long a token may live.
	MaxAPITokenLifetime = 366 * 24 * time.Hour
	// DefaultAPITokenLifetime applies when none is asked for.
	DefaultAPITokenLifetime = 90 * 24 * time.Hour
	// LastUseInterval is how stale the stored last-use time may get: a token's use is written at
	// most once per interval, never once per request.
	LastUseInterval = time.Minute

	apiTokenIDLen     = 16
	apiTokenSecretLen = 64
	apiTokensFile     = "tokens/api-tokens.json"
	maxAPITokensBytes = 1 << 20
)

// APIToken is a stored token: everything but the token itself.
type APIToken struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Role       string `json:"role"`
	CreatedBy  string `json:"createdBy,omitempty"` // the user whose permissions bound it; "" = created with the CLI
	CreatedAt  string `json:"createdAt"`
	ExpiresAt  string `json:"expiresAt"`
	LastUsedAt string `json:"lastUsedAt,omitempty"`
	Hash       string `json:"hash"` // SHA-256 hex of the token string
}

// Expired reports whether the token has expired at now.
func (t APIToken) Expired(now time.Time) bool {
	exp, err := parseTime(t.ExpiresAt)
	return err != nil || !now.Before(exp)
}

// IsAPIToken reports whether a bearer credential is shaped like an API token (not a session).
func IsAPIToken(tok string) bool { return strings.HasPrefix(tok, APITokenPrefix) }

// apiTokens is the in-memory copy of the token file, kept by a [Store].
type apiTokens struct {
	mu      sync.Mutex
	loaded  bool
	list    []APIToken
	stamp   fileStamp            // of the file as last read or written
	checked time.Time            // when stamp was last compared with the file
	stored  map[string]time.Time // id -> last use seen by this process
	digests map[string][32]byte  // id -> the decoded hash, compared in constant time
}

// setList makes list current and decodes its hashes. s.tokens.mu must be held.
func (t *apiTokens) setList(list []APIToken) {
	t.list = list
	t.digests = make(map[string][32]byte, len(list))
	for _, tok := range list {
		var d [32]byte
		if n, err := hex.Decode(d[:], []byte(tok.Hash)); err == nil && n == len(d) {
			t.digests[tok.ID] = d // a malformed hash matches nothing
		}
	}
}

// fileStamp identifies a version of the token file. Every write replaces the file by a rename,
// so a new version is a new file (os.SameFile), even within one mtime tick.
type fileStamp struct {
	info os.FileInfo
}

func (a fileStamp) same(b fileStamp) bool {
	return a.info != nil && b.info != nil && os.SameFile(a.info, b.info) &&
		a.info.Size() == b.info.Size() && a.info.ModTime().Equal(b.info.ModTime())
}

type tokenFile struct {
	Tokens []APIToken `json:"tokens"`
}

func (s *Store) apiTokensPath() string { return path.Join(s.dir, apiTokensFile) }

// loadAPITokens makes the in-memory list current: read on first use, and re-read when the file
// changed (another process: the CLI, or the writer seen from a read-only frontend), checked at
// most every RecheckAfter unless force is set. s.tokens.mu must be held.
func (s *Store) loadAPITokens(force bool) error {
	t := &s.tokens
	now := s.opts.Now()
	if t.loaded && !force && now.Sub(t.checked) < s.opts.RecheckAfter {
		return nil
	}
	p := s.apiTokensPath()
	info, err := s.root.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		t.setList(nil)
		t.stamp, t.loaded, t.checked = fileStamp{}, true, now
		return nil
	}
	if err != nil {
		return content.Internalf("sessions.apiTokens", p, err)
	}
	st := fileStamp{info}
	if t.loaded && st.same(t.stamp) {
		t.checked = now
		return nil
	}
	f, err := s.root.Open(p)
	if err != nil {
		return content.Internalf("sessions.apiTokens", p, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxAPITokensBytes+1))
	if err != nil {
		return content.Internalf("sessions.apiTokens", p, err)
	}
	var tf tokenFile
	if len(b) > maxAPITokensBytes {
		err = fmt.Errorf("larger than %d bytes", maxAPITokensBytes)
	} else {
		err = json.NewDecoder(bytes.NewReader(b)).Decode(&tf)
	}
	if err != nil {
		// Refuse every token rather than guess: a broken file is fixed or removed by hand.
		return content.Internalf("sessions.apiTokens", p, fmt.Errorf("malformed token file: %w", err))
	}
	t.setList(tf.Tokens)
	t.stamp, t.loaded, t.checked = st, true, now
	if t.stored == nil {
		t.stored = map[string]time.Time{}
	}
	for _, tok := range t.list {
		if lu, err := parseTime(tok.LastUsedAt); err == nil {
			t.stored[tok.ID] = lu
		}
	}
	return nil
}

// saveAPITokens writes list atomically (0600, folder 0700). s.tokens.mu must be held.
func (s *Store) saveAPITokens(list []APIToken) error {
	const op = "sessions.saveAPITokens"
	if err := s.ensureDir(); err != nil {
		return content.Internalf(op, s.dir, err)
	}
	dir := path.Dir(s.apiTokensPath())
	if err := s.root.MkdirAll(dir, 0o700); err != nil {
		return content.Internalf(op, dir, err)
	}
	if err := s.root.Chmod(dir, 0o700); err != nil {
		return content.Internalf(op, dir, err)
	}
	if list == nil {
		list = []APIToken{}
	}
	body, err := json.MarshalIndent(tokenFile{Tokens: list}, "", "  ")
	if err != nil {
		return content.Internalf(op, "", err)
	}
	p := s.apiTokensPath()
	if err := atomicfile.Write(s.root, p, append(body, '\n'), atomicfile.Options{Perm: 0o600, NoSync: s.opts.NoSync}); err != nil {
		return content.Internalf(op, p, err)
	}
	t := &s.tokens
	t.setList(list)
	if info, err := s.root.Stat(p); err == nil {
		t.stamp = fileStamp{info}
	}
	t.checked = s.opts.Now()
	return nil
}

// CreateAPIToken stores a new token for role, bound to the permissions of createdBy ("" for
// the CLI), lasting ttl (0 = the default; at most MaxAPITokenLifetime), and returns the token,
// which is shown once and never stored. The caller has checked the role and who may create it.
func (s *Store) CreateAPIToken(ctx context.Context, name, role, createdBy string, ttl time.Duration) (string, APIToken, error) {
	const op = "sessions.CreateAPIToken"
	if err := s.readOnly(op); err != nil {
		return "", APIToken{}, err
	}
	name = strings.TrimSpace(name)
	fe := content.FieldErrors{}
	if name == "" || utf8.RuneCountInString(name) > 100 || strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		fe.Add("name", "Name must be 1 to 100 characters, without control characters")
	}
	if !content.ValidHandle(role) {
		fe.Add("role", "Role must be a role handle")
	}
	if ttl == 0 {
		ttl = DefaultAPITokenLifetime
	}
	if ttl < time.Minute || ttl > MaxAPITokenLifetime {
		fe.Add("expiresIn", fmt.Sprintf("Lifetime must be between one minute and %d days", int(MaxAPITokenLifetime/(24*time.Hour))))
	}
	if len(fe) > 0 {
		return "", APIToken{}, fe.Err(op, "API token is invalid")
	}
	if err := ctx.Err(); err != nil {
		return "", APIToken{}, err
	}
	var id [apiTokenIDLen / 2]byte
	var secret [apiTokenSecretLen / 2]byte
	if _, err := rand.Read(id[:]); err != nil {
		return "", APIToken{}, content.Internalf(op, "", err)
	}
	if _, err := rand.Read(secret[:]); err != nil {
		return "", APIToken{}, content.Internalf(op, "", err)
	}
	tok := APITokenPrefix + hex.EncodeToString(id[:]) + "_" + hex.EncodeToString(secret[:])
	now := s.opts.Now().UTC()
	rec := APIToken{
		ID:        hex.EncodeToString(id[:]),
		Name:      name,
		Role:      role,
		CreatedBy: createdBy,
		CreatedAt: now.Format(TimeFormat),
		ExpiresAt: now.Add(ttl).Format(TimeFormat),
		Hash:      HashToken(tok),
	}
	t := &s.tokens
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := s.loadAPITokens(true); err != nil {
		return "", APIToken{}, err
	}
	if len(t.list) >= MaxAPITokens {
		return "", APIToken{}, content.Conflictf(op, "There are already %d API tokens; revoke some first", MaxAPITokens)
	}
	if err := s.saveAPITokens(append(slices.Clip(t.list), rec)); err != nil {
		return "", APIToken{}, err
	}
	return tok, rec, nil
}

// APITokens lists the stored tokens, oldest first, with the freshest last-use time this process
// knows.
func (s *Store) APITokens() ([]APIToken, error) {
	t := &s.tokens
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := s.loadAPITokens(true); err != nil {
		return nil, err
	}
	out := slices.Clone(t.list)
	for i := range out {
		if lu, ok := t.stored[out[i].ID]; ok {
			out[i].LastUsedAt = lu.UTC().Format(TimeFormat)
		}
	}
	return out, nil
}

// RevokeAPIToken removes a token by id, at once for this process. An unknown id is a NotFound
// error.
func (s *Store) RevokeAPIToken(ctx context.Context, id string) (APIToken, error) {
	const op = "sessions.RevokeAPIToken"
	if err := s.readOnly(op); err != nil {
		return APIToken{}, err
	}
	t := &s.tokens
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := s.loadAPITokens(true); err != nil {
		return APIToken{}, err
	}
	i := slices.IndexFunc(t.list, func(x APIToken) bool { return x.ID == id })
	if i < 0 {
		return APIToken{}, content.NotFoundf(op, id, "API token %q not found", id)
	}
	rec := t.list[i]
	if err := s.saveAPITokens(slices.Delete(slices.Clone(t.list), i, i+1)); err != nil {
		return APIToken{}, err
	}
	delete(t.stored, id)
	return rec, nil
}

// ValidateAPIToken returns the stored token tok stands for. A malformed, unknown, revoked or
// expired token is an Unauthenticated error. The hash comparison is constant-time. A use is
// recorded in memory at once and written at most once per LastUseInterval (never by a
// read-only store).
func (s *Store) ValidateAPIToken(ctx context.Context, tok string) (APIToken, error) {
	const op = "sessions.ValidateAPIToken"
	id, secret, ok := strings.Cut(strings.TrimPrefix(tok, APITokenPrefix), "_")
	if !IsAPIToken(tok) || !ok || len(id) != apiTokenIDLen || len(secret) != apiTokenSecretLen || !isLowerHex(id) || !isLowerHex(secret) {
		return APIToken{}, content.Unauthenticatedf(op, "Invalid or expired API token")
	}
	var buf [len(APITokenPrefix) + apiTokenIDLen + 1 + apiTokenSecretLen]byte // the checks above fix the length
	sum := sha256.Sum256(buf[:copy(buf[:], tok)])
	t := &s.tokens
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := s.loadAPITokens(false); err != nil {
		return APIToken{}, err
	}
	i := slices.IndexFunc(t.list, func(x APIToken) bool { return x.ID == id })
	if i < 0 {
		return APIToken{}, content.Unauthenticatedf(op, "Invalid or expired API token")
	}
	rec := t.list[i]
	want, ok := t.digests[id]
	if !ok || subtle.ConstantTimeCompare(want[:], sum[:]) != 1 {
		return APIToken{}, content.Unauthenticatedf(op, "Invalid or expired API token")
	}
	now := s.opts.Now()
	if rec.Expired(now) {
		return APIToken{}, content.Unauthenticatedf(op, "Invalid or expired API token")
	}
	if t.stored == nil {
		t.stored = map[string]time.Time{}
	}
	last := t.stored[id]
	t.stored[id] = now
	if !s.opts.ReadOnly && now.Sub(last) >= LastUseInterval {
		// Re-read first, so a token revoked by another process (the CLI) is neither used nor
		// written back.
		if err := s.loadAPITokens(true); err != nil {
			return APIToken{}, err
		}
		i = slices.IndexFunc(t.list, func(x APIToken) bool { return x.ID == id })
		if i < 0 {
			delete(t.stored, id)
			return APIToken{}, content.Unauthenticatedf(op, "Invalid or expired API token")
		}
		t.stored[id] = now // the re-read set the file's older time
		list := slices.Clone(t.list)
		list[i].LastUsedAt = now.UTC().Format(TimeFormat)
		if err := s.saveAPITokens(list); err != nil {
			// The use is still valid; only its record is late.
			s.opts.Log.Warn("could not record an API token's last use", "token_id", id, "err", err)
		}
	}
	return rec, nil
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// ParseLifetime reads a token lifetime: a whole number of days ("90d"), hours ("12h") or
// minutes ("30m"). "" is the default lifetime.
func ParseLifetime(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return DefaultAPITokenLifetime, nil
	}
	units := map[byte]time.Duration{'d': 24 * time.Hour, 'h': time.Hour, 'm': time.Minute}
	unit, ok := units[s[len(s)-1]]
	n := 0
	digits := s[:len(s)-1]
	for i := 0; ok && i < len(digits); i++ {
		if c := digits[i]; c < '0' || c > '9' || n > 1e6 {
			ok = false
		} else {
			n = n*10 + int(c-'0')
		}
	}
	if !ok || digits == "" || n == 0 {
		return 0, fmt.Errorf("lifetime %q must be a whole number of days, hours or minutes, such as 90d, 12h or 30m", s)
	}
	d := time.Duration(n) * unit
	if d > MaxAPITokenLifetime {
		return 0, fmt.Errorf("lifetime %q is longer than %d days", s, int(MaxAPITokenLifetime/(24*time.Hour)))
	}
	return d, nil
}
