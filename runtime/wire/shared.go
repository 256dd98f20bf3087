package wire

import "sync"

// sharedValues holds the values of Shared, one per key.
type sharedValues struct {
	mu     sync.Mutex
	values map[string]*sharedValue
}

type sharedValue struct {
	once sync.Once
	v    any
	err  error
}

// Shared returns the process-wide value of key in s, building it with build on first use;
// every later call gets the same value, or the same error. Builders use it for services that
// only some groups need, such as the WASM hook host that forms, entries and hooks share, so that
// this package does not import them (and Lambda functions that need none do not link them).
// build runs once, without s's lock held, so it may call Shared for other keys.
func Shared[T any](s *Services, key string, build func() (T, error)) (T, error) {
	s.shared.mu.Lock()
	if s.shared.values == nil {
		s.shared.values = map[string]*sharedValue{}
	}
	sv, ok := s.shared.values[key]
	if !ok {
		sv = &sharedValue{}
		s.shared.values[key] = sv
	}
	s.shared.mu.Unlock()
	sv.once.Do(func() { sv.v, sv.err = build() })
	v, _ := sv.v.(T)
	return v, sv.err
}

// SiteHandlerKey is the Shared key of the website's handler, registered by the site group when a
// process mounts it, so that another group (the CP's cache warm) can request pages through it
// without linking the site group. Before or without it, Shared returns the caller's fallback.
const SiteHandlerKey = "site.handler"
