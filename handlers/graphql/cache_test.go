package graphql_test

import (
	"fmt"
	"sync"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/query"
	"cms/handlers/graphql"
)

// listCounter counts the entry lists the store is asked for, by offset.
type listCounter struct {
	graphql.Store
	mu    sync.Mutex
	lists map[int]int
}

func (s *listCounter) Entries(collection string, q query.Query) ([]*content.Entry, int, error) {
	s.mu.Lock()
	s.lists[q.Offset]++
	s.mu.Unlock()
	return s.Store.Entries(collection, q)
}

// A query asked often keeps its cached response while many others pass through a response
// cache too small for them all: the least recently used go first, so it runs once.
func TestHotResultStaysCached(t *testing.T) {
	t.Parallel()
	st := &listCounter{Store: contenttest.OpenStore(t, contenttest.WriteSite(t, site)), lists: map[int]int{}}
	cfg := testConfig()
	cfg.CacheBytes = 16 << 10 // some tens of these small responses
	h := newHandlerOn(t, st, cfg)
	run := func(offset int) {
		noErrors(t, post(t, h, gqlReq{token: adminTok, query: fmt.Sprintf(`{ blogs(offset: %d, limit: 1) { slug } }`, offset)}))
	}
	for i := range 300 {
		run(0)
		run(i + 1)
	}
	if n := st.lists[0]; n != 1 {
		t.Errorf("the hot query ran %d times, want once", n)
	}
}
