package sessions

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"slices"
	"time"
	"unicode/utf8"

	"cms/content"
)

// Client describes who signed in, as the user sees it in their list of sessions.
type Client struct {
	UserAgent string // the browser's User-Agent header, clipped to 256 bytes
	Address   string // the client address (an IPv4 address or an IPv6 /64)
}

// Bounds of what a session file keeps of its [Client], well inside maxFileSize.
const (
	maxUserAgent = 256
	maxAddress   = 64
)

// clip cuts v to at most n bytes without splitting a character.
func clip(v string, n int) string {
	if len(v) <= n {
		return v
	}
	v = v[:n]
	for len(v) > 0 && !utf8.ValidString(v) {
		v = v[:len(v)-1]
	}
	return v
}

// List returns the live sessions of userID, newest first, with the time this process last saw
// each. It reads the sessions folder, so it is for the occasional account screen, not for
// every request.
func (s *Store) List(ctx context.Context, userID string) ([]Session, error) {
	now := s.opts.Now()
	var out []Session
	err := s.scan(ctx, func(hash string, sess Session, err error) error {
		if err != nil || sess.UserID != userID || !now.Before(sess.ExpiresAt) {
			return nil
		}
		out = append(out, sess)
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.mu.RLock()
	for i := range out {
		if c, ok := s.cache[digestOf(out[i].Hash)]; ok {
			if at := c.seen.Load(); at > 0 {
				out[i].LastSeen = time.Unix(at, 0).UTC()
			}
		}
	}
	s.mu.RUnlock()
	slices.SortFunc(out, func(a, b Session) int {
		return cmp.Or(b.CreatedAt.Compare(a.CreatedAt), b.ExpiresAt.Compare(a.ExpiresAt), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// RevokeID ends the session of userID whose public id is id and returns it; a session that
// does not exist or belongs to another user is a NotFound error, so ids of other users'
// sessions cannot be probed.
func (s *Store) RevokeID(ctx context.Context, userID, id string) (Session, error) {
	const op = "sessions.RevokeID"
	if err := s.readOnly(op); err != nil {
		return Session{}, err
	}
	var found Session
	errFound := errors.New("found")
	err := s.scan(ctx, func(hash string, sess Session, err error) error {
		if err == nil && sess.UserID == userID && sess.ID == id {
			found = sess
			return errFound
		}
		return nil
	})
	if err != nil && !errors.Is(err, errFound) {
		return Session{}, err
	}
	if found.Hash == "" {
		return Session{}, content.NotFoundf(op, id, "Session %q not found", id)
	}
	s.forget(found.Hash)
	err = s.remove(found.Hash)
	s.forget(found.Hash) // a validation may have cached it meanwhile
	s.untrack("", found.Hash)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Session{}, content.Internalf(op, s.filePath(found.Hash), err)
	}
	return found, nil
}
