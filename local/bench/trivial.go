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

// trivialHandler answers every request with the fixed body: what plain net/http does with no
// work at all, the yardstick of the load scenarios.
func trivialHandler() http.Handler {
	body := trivialBody()
	length := strconv.Itoa(len(body))
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "application/json; charset=utf-8")
		h.Set("Content-Length", length)
		w.Write(body)
	})
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
