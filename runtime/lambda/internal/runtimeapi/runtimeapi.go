// Package runtimeapi is a small AWS Lambda Runtime API emulator for the end-to-end test and the
// cold-start benchmark: a bootstrap started with AWS_LAMBDA_RUNTIME_API=Addr() polls
// GET /2018-06-01/runtime/invocation/next, gets the events passed to Invoke one at a time, and
// posts each result to .../invocation/{id}/response or .../error. Start-up failures posted to
// /2018-06-01/runtime/init/error are kept for InitError.
package runtimeapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Result is what the function posted for one invocation.
type Result struct {
	Body  []byte
	Error bool // posted to .../error (the handler returned an error or panicked)
}

type invocation struct {
	id      string
	payload []byte
	done    chan Result
}

// Emulator serves the Runtime API on a loopback port.
type Emulator struct {
	srv    *http.Server
	ln     net.Listener
	queue  chan *invocation
	mu     sync.Mutex
	nextID int
	open   map[string]*invocation // handed out, waiting for a result
	init   []byte
	polled chan struct{} // closed at the first poll
	once   sync.Once
}

// New starts an emulator on 127.0.0.1 with a free port.
func New() (*Emulator, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	e := &Emulator{ln: ln, queue: make(chan *invocation), open: map[string]*invocation{}, polled: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /2018-06-01/runtime/invocation/next", e.next)
	mux.HandleFunc("POST /2018-06-01/runtime/invocation/{id}/response", e.result(false))
	mux.HandleFunc("POST /2018-06-01/runtime/invocation/{id}/error", e.result(true))
	mux.HandleFunc("POST /2018-06-01/runtime/init/error", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		e.mu.Lock()
		e.init = b
		e.mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
	})
	e.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go e.srv.Serve(ln)
	return e, nil
}

// Addr is the value for AWS_LAMBDA_RUNTIME_API.
func (e *Emulator) Addr() string { return e.ln.Addr().String() }

// Polled is closed when the function first asks for an event (its start-up is done).
func (e *Emulator) Polled() <-chan struct{} { return e.polled }

// InitError returns what the function posted as an initialisation error, if anything.
func (e *Emulator) InitError() []byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.init
}

// Invoke hands payload to the function's next poll and waits for its result.
func (e *Emulator) Invoke(ctx context.Context, payload []byte) (Result, error) {
	e.mu.Lock()
	e.nextID++
	inv := &invocation{id: fmt.Sprintf("req-%06d", e.nextID), payload: payload, done: make(chan Result, 1)}
	e.mu.Unlock()
	select {
	case e.queue <- inv:
	case <-ctx.Done():
		return Result{}, fmt.Errorf("function never polled for the event: %w", ctx.Err())
	}
	select {
	case r := <-inv.done:
		return r, nil
	case <-ctx.Done():
		return Result{}, fmt.Errorf("no result for %s: %w", inv.id, ctx.Err())
	}
}

// Close stops the emulator; stop the function first, or its pending poll keeps Close waiting
// until ctx ends.
func (e *Emulator) Close(ctx context.Context) error {
	err := e.srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		return e.srv.Close()
	}
	return err
}

func (e *Emulator) next(w http.ResponseWriter, r *http.Request) {
	e.once.Do(func() { close(e.polled) })
	select {
	case inv := <-e.queue:
		e.mu.Lock()
		e.open[inv.id] = inv
		e.mu.Unlock()
		h := w.Header()
		h.Set("Lambda-Runtime-Aws-Request-Id", inv.id)
		h.Set("Lambda-Runtime-Deadline-Ms", strconv.FormatInt(time.Now().Add(30*time.Second).UnixMilli(), 10))
		h.Set("Lambda-Runtime-Invoked-Function-Arn", "arn:aws:lambda:eu-west-1:123456789012:function:cms-test")
		h.Set("Lambda-Runtime-Trace-Id", "Root=1-00000000-000000000000000000000000;Sampled=0")
		h.Set("Content-Type", "application/json")
		w.Write(inv.payload)
	case <-r.Context().Done():
	}
}

func (e *Emulator) result(isErr bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		e.mu.Lock()
		inv := e.open[id]
		delete(e.open, id)
		e.mu.Unlock()
		if inv == nil {
			http.Error(w, "unknown request id "+id, http.StatusBadRequest)
			return
		}
		inv.done <- Result{Body: body, Error: isErr}
		w.WriteHeader(http.StatusAccepted)
	}
}
