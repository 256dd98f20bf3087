package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// trivialBodySize is the size of the trivial handler's JSON body, about one small entry.
const trivialBodySize = 1536

// trivialBody returns a fixed JSON document of exactly trivialBodySize bytes.
func trivialBody() []byte {
	type item struct {
		ID    int    `json:"id"`
		Title string `json:"title"`
		Slug  string `json:"slug"`
		Note  string `json:"note"`
	}
	var items []item
	for i := 0; ; i++ {
		next := append(items, item{ID: i, Title: "Item " + strconv.Itoa(i), Slug: "item-" + strconv.Itoa(i), Note: "A fixed body of the trivial handler."})
		b, _ := json.Marshal(map[string]any{"data": next, "pad": ""})
		if len(b) > trivialBodySize {
			break
		}
		items = next
	}
	b, _ := json.Marshal(map[string]any{"data": items, "pad": ""})
	pad := make([]byte, trivialBodySize-len(b))
	for i := range pad {
		pad[i] = 'x'
	}
	b, _ = json.Marshal(map[string]any{"data": items, "pad": string(pad)})
	return b
}

// maxSizedBody bounds the bodies of /sized/{n}.
const maxSizedBody = 1 << 20

// sizedBody returns a JSON document of exactly n bytes (n >= 10): {"pad":"xxx..."}.
func sizedBody(n int) []byte {
	b := make([]byte, 0, n)
	b = append(b, `{"pad":"`...)
	for len(b) < n-2 {
		b = append(b, 'x')
	}
	return append(b, `"}`...)
}

// trivialHandler answers every request with the fixed body: what plain net/http does with no
// work at all, the yardstick of the load scenarios. GET /sized/{n} answers the same way with a
// body of n bytes, the yardstick for a response of that size (a body over net/http's 4 KB write
// buffer costs a bare handler a third more than the 1.5 KB one).
func trivialHandler() http.Handler {
	body := trivialBody()
	var mu sync.Mutex
	sized := map[int][]byte{}
	serve := func(w http.ResponseWriter, body []byte) {
		h := w.Header()
		h.Set("Content-Type", "application/json; charset=utf-8")
		h.Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /sized/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(r.PathValue("n"))
		if err != nil || n < 10 || n > maxSizedBody {
			http.Error(w, "n: 10 to 1048576 bytes", http.StatusBadRequest)
			return
		}
		mu.Lock()
		b, ok := sized[n]
		if !ok && len(sized) < 64 {
			b = sizedBody(n)
			sized[n] = b
		}
		mu.Unlock()
		if b == nil {
			b = sizedBody(n)
		}
		serve(w, b)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) { serve(w, body) })
	return mux
}

// runTrivial serves the trivial handler on -addr until ctx ends (the benchmark sends SIGTERM).
func runTrivial(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench trivial", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "listen address")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: trivialHandler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	fmt.Fprintln(stderr, "trivial server on", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			return err
		}
		if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}
