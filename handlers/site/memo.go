package site

import "sync"

// maxMemo bounds the memo's keys: template calls are few and repeat across pages, but a
// template could build its arguments from the request.
const maxMemo = 1024

// memo keeps the results of template functions that many pages call alike (the latest posts,
// a menu, the terms of a taxonomy) for as long as the content they read is unchanged: the
// store's generations and the data files' (not the templates', which do not change them).
type memo struct {
	mu      sync.Mutex
	version uint64
	m       map[string]any
}

func (s *site) dataVersion() uint64 { return s.version(0) }

// get returns the value of key computed at the current version, computing it on a miss.
// Errors are not kept.
func memoGet[V any](s *site, key string, compute func() (V, error)) (V, error) {
	version := s.dataVersion()
	mm := &s.memo
	mm.mu.Lock()
	if mm.version != version || len(mm.m) >= maxMemo {
		mm.version, mm.m = version, map[string]any{}
	}
	if v, ok := mm.m[key]; ok {
		mm.mu.Unlock()
		return v.(V), nil
	}
	mm.mu.Unlock()
	v, err := compute()
	if err != nil {
		return v, err
	}
	mm.mu.Lock()
	if mm.version == version {
		mm.m[key] = v
	}
	mm.mu.Unlock()
	return v, nil
}
