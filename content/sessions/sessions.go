// Package sessions keeps login sessions as small JSON files, one per session, in the format
// existing sites use: the file is named by the SHA-256 (hex) of the token's hex string and holds
// {"id","userId","expiresAt"} plus createdAt, never the token itself, so a copy of the folder
// grants nothing. It also holds the "password" credential driver (see [PasswordValidator]).
//
// Validating a session never runs scrypt: a validated session is kept in memory, so a repeat
// request does no I/O at all until [Options.RecheckAfter] has passed, after which one stat
// confirms the file still exists. The store assumes it is the single writer of its folder (spec
// rule 3): a session file removed by another process is noticed only at that recheck, so
// revocation by another process takes effect within RecheckAfter, and at once in this one.
//
// A user has at most [Options.MaxPerUser] live sessions (a new one ends the oldest), and expired
// files are swept at start-up and then every [Options.SweepInterval], so the folder stays bounded.
package sessions

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"cms/content"
	"cms/content/internal/atomicfile"
)

// Defaults of [Options].
const (
	DefaultDir           = ".sessions"
	DefaultDuration      = 24 * time.Hour
	DefaultSweepInterval = 15 * time.Minute
	DefaultRecheckAfter  = 5 * time.Second
	DefaultMaxPerUser    = 20
	// maxFileSize bounds a session file; anything larger is malformed (and removed).
	maxFileSize = 4 << 10
	// maxCached bounds the in-memory cache of validated sessions.
	maxCached = 1 << 16
	// staleTemp is how old a leftover temp file must be before a sweep removes it.
	staleTemp = time.Hour
)

// TimeFormat is how times are written in session files: ISO 8601 with milliseconds in UTC, as
// JavaScript's Date.toISOString writes them.
const TimeFormat = "2006-01-02T15:04:05.000Z"

// Token is a session token. Its LogValue hides it, so it cannot end up in a log by accident.
type Token string

// LogValue implements [slog.LogValuer].
func (Token) LogValue() slog.Value { return slog.StringValue("[token]") }

// Session is one login session.
type Session struct {
	ID        string    // random UUID; safe to show
	Hash      string    // SHA-256 hex of the token: the file name, never the token
	UserID    string    // the user the session authenticates
	CreatedAt time.Time // zero for files written by other systems
	ExpiresAt time.Time
	// UserAgent and Address describe the client that signed in (see [Client]); empty for
	// sessions created without them.
	UserAgent string
	Address   string
	// LastSeen is when this process last validated the session, to the minute; zero when it has
	// not since it started. It is kept in memory only, so a request never writes a file.
	LastSeen time.Time

	expiresISO string // ExpiresAt formatted once, not on every request
}

// ExpiresISO returns ExpiresAt in [TimeFormat].
func (s Session) ExpiresISO() string {
	if s.expiresISO != "" {
		return s.expiresISO
	}
	return s.ExpiresAt.UTC().Format(TimeFormat)
}

// digest is a token's SHA-256, the cache key (the hex form names the file).
type digest [sha256.Size]byte

func digestOf(hash string) digest {
	var d digest
	_, _ = hex.Decode(d[:], []byte(hash))
	return d
}

// file is the on-disk form of a session.
type file struct {
	ID        string `json:"id"`
	UserID    string `json:"userId"`
	ExpiresAt string `json:"expiresAt"`
	CreatedAt string `json:"createdAt,omitempty"`
	UserAgent string `json:"userAgent,omitempty"`
	Address   string `json:"address,omitempty"`
}

// Options configure a [Store].
type Options struct {
	// Root is the site folder. Dir is resolved inside it unless Dir is absolute.
	Root *os.Root
	// Dir is the sessions folder, relative to Root (default ".sessions") or absolute.
	Dir string
	// Duration is how long a session lasts (default 24 h).
	Duration time.Duration
	// SweepInterval is how often expired files are removed in the background; 0 means
	// DefaultSweepInterval, negative disables the sweep.
	SweepInterval time.Duration
	// MaxPerUser bounds the live sessions of one user: creating one more ends the oldest. 0 means
	// DefaultMaxPerUser, negative no bound.
	MaxPerUser int
	// RecheckAfter is how long a validated session is trusted from memory before one stat
	// confirms its file still exists; 0 means DefaultRecheckAfter.
	RecheckAfter time.Duration
	// ReadOnly refuses to create or remove session files (frontends on a read-only mount can
	// still validate sessions).
	ReadOnly bool
	NoSync   bool // skip fsync (tests and benchmarks only)
	Log      *slog.Logger
	Now      func() time.Time
}

// owned is a session in the per-user index.
type owned struct {
	hash    string
	created time.Time
	expires time.Time
}

type cached struct {
	s       Session
	checked time.Time
	seen    atomic.Int64 // unix seconds of the last validation, updated at most once a minute
}

// Store is the file session store. It is safe for concurrent use; Close stops its sweep.
type Store struct {
	opts     Options
	root     *os.Root
	ownsRoot bool
	dir      string
	dirReady atomic.Bool

	// writeMu orders creation against revocation: Create holds it shared, RevokeUser exclusively,
	// so a session created while a user's sessions are revoked is either revoked too or created after.
	writeMu sync.RWMutex

	// idxMu guards the index of live sessions per user that MaxPerUser needs. It is built from
	// one scan of the folder (the first sweep, or the first Create before it writes) and kept up
	// to date by every change after that, so it never misses a session of this process.
	idxMu  sync.Mutex
	byUser map[string][]owned // oldest first; nil until built
	owner  map[string]string  // session hash -> user ID

	mu        sync.RWMutex
	cache     map[digest]*cached
	epoch     uint64 // bumped by every removal, so a read racing one is not cached
	lastLogin map[string]time.Time

	tokens apiTokens // API tokens (tokens.go)

	closed chan struct{}
	wg     sync.WaitGroup
}

// Open returns a store on the sessions folder, which is created (mode 0700) on first need.
func Open(o Options) (*Store, error) {
	const op = "sessions.Open"
	if o.Dir == "" {
		o.Dir = DefaultDir
	}
	if o.Duration <= 0 {
		o.Duration = DefaultDuration
	}
	if o.SweepInterval == 0 {
		o.SweepInterval = DefaultSweepInterval
	}
	if o.RecheckAfter <= 0 {
		o.RecheckAfter = DefaultRecheckAfter
	}
	if o.MaxPerUser == 0 {
		o.MaxPerUser = DefaultMaxPerUser
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Store{opts: o, cache: map[digest]*cached{}, lastLogin: map[string]time.Time{}, closed: make(chan struct{})}
	if filepath.IsAbs(o.Dir) {
		// An absolute folder outside the site gets its own root, so paths stay confined to it.
		if !o.ReadOnly {
			if err := os.MkdirAll(o.Dir, 0o700); err != nil {
				return nil, content.Internalf(op, o.Dir, fmt.Errorf("create sessions folder: %w", err))
			}
		}
		root, err := os.OpenRoot(o.Dir)
		if err != nil {
			return nil, content.Internalf(op, o.Dir, fmt.Errorf("open sessions folder: %w", err))
		}
		s.root, s.ownsRoot, s.dir = root, true, "."
	} else {
		if o.Root == nil {
			return nil, content.Invalidf(op, "sessions: a site folder root is required for the relative folder %q", o.Dir)
		}
		d := path.Clean(filepath.ToSlash(o.Dir))
		if !filepath.IsLocal(filepath.FromSlash(d)) {
			return nil, content.Invalidf(op, "sessions folder %q must be inside the site folder or absolute", o.Dir)
		}
		s.root, s.dir = o.Root, d
	}
	if o.SweepInterval > 0 && !o.ReadOnly {
		s.wg.Add(1)
		go s.sweep(o.SweepInterval)
	}
	return s, nil
}

// Close stops the background sweep and waits for it. It is safe to call more than once.
func (s *Store) Close() error {
	select {
	case <-s.closed:
		return nil
	default:
	}
	close(s.closed)
	s.wg.Wait()
	if s.ownsRoot {
		return s.root.Close()
	}
	return nil
}

// Duration returns how long a new session lasts.
func (s *Store) Duration() time.Duration { return s.opts.Duration }

// sweep removes expired sessions at start-up, in the background so start-up does not wait for
// the folder, and then every interval.
func (s *Store) sweep(every time.Duration) {
	defer s.wg.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if n, err := s.CleanExpired(context.Background()); err != nil {
			s.opts.Log.Warn("session sweep failed", "err", err)
		} else if n > 0 {
			s.opts.Log.Debug("session sweep", "removed", n)
		}
		select {
		case <-s.closed:
			return
		case <-t.C:
		}
	}
}

// HashToken returns the file name stem of a token: the lowercase hex SHA-256 of its hex string.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// wellFormed reports whether tok looks like a token this service issues (64 hex digits), so junk
// never reaches the file system.
func wellFormed(tok string) bool {
	if len(tok) != 64 {
		return false
	}
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}

func (s *Store) filePath(hash string) string { return path.Join(s.dir, hash+".json") }

func errInvalid(op string) error {
	return content.Unauthenticatedf(op, "Invalid or expired session")
}

func (s *Store) readOnly(op string) error {
	if s.opts.ReadOnly {
		return &content.Error{Kind: content.Forbidden, Op: op, Code: "READ_ONLY", Message: "This deployment is read-only"}
	}
	return nil
}

func (s *Store) ensureDir() error {
	if s.dirReady.Load() {
		return nil
	}
	if s.dir != "." {
		if err := s.root.MkdirAll(s.dir, 0o700); err != nil {
			return fmt.Errorf("create sessions folder: %w", err)
		}
	}
	if err := s.root.Chmod(s.dir, 0o700); err != nil {
		return fmt.Errorf("restrict sessions folder: %w", err)
	}
	s.dirReady.Store(true)
	return nil
}

// Create starts a session for userID and returns its token (32 random bytes, hex).
func (s *Store) Create(ctx context.Context, userID string) (Token, Session, error) {
	return s.CreateFor(ctx, userID, Client{})
}

// CreateFor is [Store.Create] noting the client that signed in, so that the user can tell
// their sessions apart.
func (s *Store) CreateFor(ctx context.Context, userID string, client Client) (Token, Session, error) {
	const op = "sessions.Create"
	if err := s.readOnly(op); err != nil {
		return "", Session{}, err
	}
	if userID == "" {
		return "", Session{}, content.Invalidf(op, "a session needs a user")
	}
	if err := ctx.Err(); err != nil {
		return "", Session{}, err
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", Session{}, content.Internalf(op, "", fmt.Errorf("read random token: %w", err))
	}
	tok := hex.EncodeToString(raw[:])
	now := s.opts.Now().UTC()
	sess := Session{
		ID:        uuid.NewString(),
		Hash:      HashToken(tok),
		UserID:    userID,
		CreatedAt: now.Truncate(time.Millisecond),
		ExpiresAt: now.Add(s.opts.Duration).Truncate(time.Millisecond),
		UserAgent: clip(client.UserAgent, maxUserAgent),
		Address:   clip(client.Address, maxAddress),
	}
	sess.expiresISO = sess.ExpiresAt.Format(TimeFormat)
	body, err := json.MarshalIndent(file{ID: sess.ID, UserID: userID, ExpiresAt: sess.expiresISO, CreatedAt: sess.CreatedAt.Format(TimeFormat),
		UserAgent: sess.UserAgent, Address: sess.Address}, "", "  ")
	if err != nil {
		return "", Session{}, content.Internalf(op, "", err)
	}
	s.writeMu.RLock()
	defer s.writeMu.RUnlock()
	if err := s.ensureDir(); err != nil {
		return "", Session{}, content.Internalf(op, s.dir, err)
	}
	s.ensureIndex(ctx)
	p := s.filePath(sess.Hash)
	if err := atomicfile.Write(s.root, p, append(body, '\n'), atomicfile.Options{Perm: 0o600, Exclusive: true, NoSync: s.opts.NoSync}); err != nil {
		return "", Session{}, content.Internalf(op, p, err)
	}
	s.mu.Lock()
	s.put(sess, now)
	if sess.CreatedAt.After(s.lastLogin[userID]) {
		s.lastLogin[userID] = sess.CreatedAt
	}
	s.mu.Unlock()
	for _, hash := range s.track(sess, now) {
		s.forget(hash)
		s.removeQuietly(hash)
		s.forget(hash) // a validation may have cached it meanwhile
	}
	return Token(tok), sess, nil
}

// ensureIndex builds the per-user index, unless it exists or there is no cap. A failure is
// logged: the cap then applies from the next sweep on.
func (s *Store) ensureIndex(ctx context.Context) {
	if s.opts.MaxPerUser < 0 {
		return
	}
	s.idxMu.Lock()
	defer s.idxMu.Unlock()
	if s.byUser == nil {
		if _, err := s.cleanLocked(ctx); err != nil {
			s.opts.Log.Warn("could not read the sessions folder", "err", err)
		}
	}
}

// track adds a new session to the index and returns the sessions of its user to end: the
// expired ones and the oldest beyond MaxPerUser. The new session is the newest, so it stays.
func (s *Store) track(sess Session, now time.Time) []string {
	if s.opts.MaxPerUser < 0 {
		return nil
	}
	s.idxMu.Lock()
	defer s.idxMu.Unlock()
	if s.byUser == nil {
		return nil
	}
	list := append(s.byUser[sess.UserID], owned{hash: sess.Hash, created: sess.CreatedAt, expires: sess.ExpiresAt})
	s.owner[sess.Hash] = sess.UserID
	var end []string
	keep := make([]owned, 0, len(list))
	for _, o := range list {
		if now.Before(o.expires) {
			keep = append(keep, o)
		} else {
			end = append(end, o.hash)
		}
	}
	if over := len(keep) - s.opts.MaxPerUser; over > 0 {
		for _, o := range keep[:over] {
			end = append(end, o.hash)
		}
		keep = keep[over:]
	}
	for _, h := range end {
		delete(s.owner, h)
	}
	s.byUser[sess.UserID] = keep
	return end
}

// untrack drops sessions from the index; with user set, all of that user's.
func (s *Store) untrack(user string, hashes ...string) {
	s.idxMu.Lock()
	defer s.idxMu.Unlock()
	if s.byUser == nil {
		return
	}
	if user != "" {
		for _, o := range s.byUser[user] {
			delete(s.owner, o.hash)
		}
		delete(s.byUser, user)
	}
	for _, h := range hashes {
		u, ok := s.owner[h]
		if !ok {
			continue
		}
		delete(s.owner, h)
		list := s.byUser[u]
		for i := range list {
			if list[i].hash == h {
				s.byUser[u] = append(list[:i:i], list[i+1:]...)
				break
			}
		}
		if len(s.byUser[u]) == 0 {
			delete(s.byUser, u)
		}
	}
}

// put caches a validated session; s.mu must be held.
func (s *Store) put(sess Session, now time.Time) {
	if len(s.cache) >= maxCached {
		for h := range s.cache { // drop an arbitrary entry; it is re-read on its next use
			delete(s.cache, h)
			break
		}
	}
	if sess.expiresISO == "" {
		sess.expiresISO = sess.ExpiresAt.UTC().Format(TimeFormat)
	}
	c := &cached{s: sess, checked: now}
	c.seen.Store(now.Unix())
	s.cache[digestOf(sess.Hash)] = c
}

// Validate returns the session of token. A missing, malformed or expired session is an
// Unauthenticated error; malformed and expired files are removed.
func (s *Store) Validate(ctx context.Context, token string) (Session, error) {
	const op = "sessions.Validate"
	if !wellFormed(token) {
		return Session{}, errInvalid(op)
	}
	// Tokens are hashed as text, as existing sites do; another spelling is another token.
	var buf [64]byte // wellFormed tokens fit; copying avoids a heap []byte per request
	d := digest(sha256.Sum256(buf[:copy(buf[:], token)]))
	now := s.opts.Now()
	s.mu.RLock()
	c, ok := s.cache[d]
	var sess Session
	var checked time.Time
	if ok {
		sess, checked = c.s, c.checked
	}
	epoch := s.epoch
	s.mu.RUnlock()
	if ok {
		// Last seen moves at most once a minute, so most requests only read the atomic.
		if at := now.Unix(); at-c.seen.Load() >= 60 {
			c.seen.Store(at)
		}
		hash := sess.Hash
		if !now.Before(sess.ExpiresAt) {
			s.forget(hash)
			s.removeQuietly(hash)
			return Session{}, errInvalid(op)
		}
		if now.Sub(checked) < s.opts.RecheckAfter {
			return sess, nil
		}
		// Trusted long enough: confirm the file was not removed by another process.
		if _, err := s.root.Stat(s.filePath(hash)); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				s.forget(hash)
				return Session{}, errInvalid(op)
			}
			return Session{}, content.Internalf(op, s.filePath(hash), err)
		}
		s.mu.Lock()
		if c, ok := s.cache[d]; ok && s.epoch == epoch {
			c.checked = now
		}
		s.mu.Unlock()
		return sess, nil
	}
	if err := ctx.Err(); err != nil {
		return Session{}, err
	}
	hash := hex.EncodeToString(d[:])
	sess, err := s.read(hash)
	if err != nil {
		if errors.Is(err, errMalformed) {
			s.opts.Log.Warn("removing malformed session file", "file", s.filePath(hash), "problem", err)
			s.removeQuietly(hash)
			return Session{}, errInvalid(op)
		}
		if errors.Is(err, fs.ErrNotExist) {
			return Session{}, errInvalid(op)
		}
		return Session{}, content.Internalf(op, s.filePath(hash), err)
	}
	if !now.Before(sess.ExpiresAt) {
		s.removeQuietly(hash)
		return Session{}, errInvalid(op)
	}
	s.mu.Lock()
	if s.epoch == epoch { // nothing was removed meanwhile, so the file read is still current
		s.put(sess, now)
	}
	s.mu.Unlock()
	return sess, nil
}

var errMalformed = errors.New("malformed session file")

// read loads one session file.
func (s *Store) read(hash string) (Session, error) {
	f, err := s.root.Open(s.filePath(hash))
	if err != nil {
		return Session{}, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return Session{}, err
	}
	sess, err := parse(b)
	if err != nil {
		return Session{}, err
	}
	sess.Hash = hash
	return sess, nil
}

// parse decodes a session file: it needs a string id, a string userId and a parseable expiresAt.
func parse(b []byte) (Session, error) {
	if len(b) > maxFileSize {
		return Session{}, fmt.Errorf("%w: larger than %d bytes", errMalformed, maxFileSize)
	}
	var f file
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&f); err != nil {
		return Session{}, fmt.Errorf("%w: %v", errMalformed, err)
	}
	if f.ID == "" || f.UserID == "" {
		return Session{}, fmt.Errorf("%w: id and userId are required", errMalformed)
	}
	exp, err := parseTime(f.ExpiresAt)
	if err != nil {
		return Session{}, fmt.Errorf("%w: expiresAt: %v", errMalformed, err)
	}
	sess := Session{ID: f.ID, UserID: f.UserID, ExpiresAt: exp, UserAgent: f.UserAgent, Address: f.Address}
	if f.CreatedAt != "" {
		sess.CreatedAt, _ = parseTime(f.CreatedAt) // optional; a bad value only loses the field
	}
	return sess, nil
}

func parseTime(v string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.000Z07:00", "2006-01-02T15:04:05Z07:00"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not an ISO 8601 time", v)
}

// forget drops a cached session.
func (s *Store) forget(hash string) {
	s.mu.Lock()
	delete(s.cache, digestOf(hash))
	s.epoch++
	s.mu.Unlock()
}

// removeQuietly deletes a session file during validation; failures only matter to the sweep.
func (s *Store) removeQuietly(hash string) {
	if s.opts.ReadOnly {
		return
	}
	if err := s.remove(hash); err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.opts.Log.Warn("could not remove session file", "file", s.filePath(hash), "err", err)
	}
}

func (s *Store) remove(hash string) error {
	return atomicfile.Remove(s.root, s.filePath(hash), atomicfile.Options{NoSync: s.opts.NoSync})
}

// Destroy ends the session of token (logout). An unknown token is not an error.
func (s *Store) Destroy(ctx context.Context, token string) error {
	const op = "sessions.Destroy"
	if err := s.readOnly(op); err != nil {
		return err
	}
	if !wellFormed(token) {
		return nil
	}
	hash := HashToken(token)
	s.forget(hash)
	err := s.remove(hash)
	// Forget again: a validation that read the file before its removal may have cached it
	// in between; the epoch bump also stops one still in flight.
	s.forget(hash)
	s.untrack("", hash)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return content.Internalf(op, s.filePath(hash), err)
	}
	return nil
}

// RevokeUser ends every session of userID (password change, deletion, role or email change)
// and returns how many files it removed.
func (s *Store) RevokeUser(ctx context.Context, userID string) (int, error) {
	return s.RevokeUserExcept(ctx, userID, "")
}

// RevokeUserExcept ends every session of userID but the one whose hash is keep ("sign out
// everywhere else"; "" keeps none) and returns how many files it removed.
func (s *Store) RevokeUserExcept(ctx context.Context, userID, keep string) (int, error) {
	const op = "sessions.RevokeUser"
	if err := s.readOnly(op); err != nil {
		return 0, err
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	// Forget cached sessions first, so from here on every request of the user reads its file,
	// and again at the end, for validations that read a file before it was removed.
	s.forgetUser(userID)
	defer s.forgetUser(userID)
	var removed []string
	defer func() {
		if keep == "" {
			s.untrack(userID)
		} else {
			s.untrack("", removed...)
		}
	}()
	err := s.scan(ctx, func(hash string, sess Session, err error) error {
		if err != nil || sess.UserID != userID || hash == keep {
			return nil // malformed files are the sweep's business
		}
		if err := s.remove(hash); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return content.Internalf(op, s.filePath(hash), err)
		}
		removed = append(removed, hash)
		return nil
	})
	return len(removed), err
}

// forgetUser drops the cached sessions of a user.
func (s *Store) forgetUser(userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for h, c := range s.cache {
		if c.s.UserID == userID {
			delete(s.cache, h)
		}
	}
	s.epoch++
}

// CleanExpired removes expired and malformed session files and stale temp files, and returns
// how many sessions it removed.
func (s *Store) CleanExpired(ctx context.Context) (int, error) {
	const op = "sessions.CleanExpired"
	if err := s.readOnly(op); err != nil {
		return 0, err
	}
	s.idxMu.Lock()
	defer s.idxMu.Unlock()
	return s.cleanLocked(ctx)
}

// cleanLocked is CleanExpired with s.idxMu held, so no Create tracks a session while the folder
// is read; it builds the per-user index if there is none, or else drops what it removed.
func (s *Store) cleanLocked(ctx context.Context) (int, error) {
	const op = "sessions.CleanExpired"
	now := s.opts.Now()
	s.mu.Lock()
	for h, c := range s.cache {
		if !now.Before(c.s.ExpiresAt) {
			delete(s.cache, h)
		}
	}
	s.mu.Unlock()
	build := s.byUser == nil && s.opts.MaxPerUser >= 0
	byUser := map[string][]owned{}
	n := 0
	err := s.scan(ctx, func(hash string, sess Session, err error) error {
		if err == nil && now.Before(sess.ExpiresAt) {
			if build {
				created := sess.CreatedAt
				if created.IsZero() { // written by another system: assume the usual lifetime
					created = sess.ExpiresAt.Add(-s.opts.Duration)
				}
				byUser[sess.UserID] = append(byUser[sess.UserID], owned{hash: hash, created: created, expires: sess.ExpiresAt})
			}
			return nil
		}
		if err != nil && !errors.Is(err, errMalformed) {
			return nil // unreadable for another reason: leave it
		}
		if err := s.remove(hash); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return content.Internalf(op, s.filePath(hash), err)
		}
		n++
		return nil
	})
	s.cleanTemp()
	switch {
	case build && err == nil:
		s.owner = map[string]string{}
		for u, list := range byUser {
			slices.SortFunc(list, func(a, b owned) int {
				return cmp.Or(a.created.Compare(b.created), a.expires.Compare(b.expires), strings.Compare(a.hash, b.hash))
			})
			for _, o := range list {
				s.owner[o.hash] = u
			}
		}
		s.byUser = byUser
	case s.byUser != nil:
		for u, list := range s.byUser {
			s.byUser[u] = slices.DeleteFunc(list, func(o owned) bool {
				if now.Before(o.expires) {
					return false
				}
				delete(s.owner, o.hash)
				return true
			})
			if len(s.byUser[u]) == 0 {
				delete(s.byUser, u)
			}
		}
	}
	return n, err
}

// scan calls fn for every session file of the folder.
func (s *Store) scan(ctx context.Context, fn func(hash string, sess Session, err error) error) error {
	ents, err := fs.ReadDir(s.root.FS(), s.dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return content.Internalf("sessions.scan", s.dir, err)
	}
	for _, e := range ents {
		if err := ctx.Err(); err != nil {
			return err
		}
		name := e.Name()
		hash, ok := strings.CutSuffix(name, ".json")
		if !ok || e.IsDir() || strings.HasPrefix(name, ".") {
			continue
		}
		sess, err := s.read(hash)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed meanwhile
		}
		if err := fn(hash, sess, err); err != nil {
			return err
		}
	}
	return nil
}

// cleanTemp removes temp files a crash left behind. File times are the file system's, so they are
// compared with the wall clock rather than Options.Now.
func (s *Store) cleanTemp() {
	now := time.Now()
	ents, err := fs.ReadDir(s.root.FS(), s.dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !atomicfile.IsTemp(e.Name()) {
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > staleTemp {
			_ = s.root.Remove(path.Join(s.dir, e.Name()))
		}
	}
}

// LastLogin returns when userID last logged in through this process, if it has.
func (s *Store) LastLogin(userID string) (time.Time, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, ok := s.lastLogin[userID]
	return t, ok
}
