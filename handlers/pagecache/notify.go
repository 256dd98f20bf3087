package pagecache

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Notifier reports purges: a log line each, and, with a webhook URL (staticCache.purgeWebhook),
// a POST of {"urls": [...]} for a CDN purge. Report never blocks the write that caused the
// purge: posts go through a bounded queue, and when it is full the purge is logged as dropped.
type Notifier struct {
	url    string
	client *http.Client
	log    *slog.Logger
	q      chan []string
	quit   chan struct{}
	wg     sync.WaitGroup
	once   sync.Once

	dropped atomic.Uint64
}

// queueLen bounds the purges waiting to be posted.
const queueLen = 256

// webhookTimeout bounds one POST.
const webhookTimeout = 10 * time.Second

// NewNotifier returns a notifier; webhook "" only logs. client nil uses a client with
// webhookTimeout.
func NewNotifier(webhook string, log *slog.Logger, client *http.Client) *Notifier {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if client == nil {
		client = &http.Client{Timeout: webhookTimeout}
	}
	n := &Notifier{url: webhook, client: client, log: log, q: make(chan []string, queueLen), quit: make(chan struct{})}
	if webhook != "" {
		n.wg.Go(n.run)
	}
	return n
}

// maxLoggedURLs bounds the URLs one log line lists.
const maxLoggedURLs = 20

// Report logs a purge and queues it for the webhook. It is pagecache.Options.OnPurge.
func (n *Notifier) Report(urls []string) {
	shown := urls
	if len(shown) > maxLoggedURLs {
		shown = shown[:maxLoggedURLs]
	}
	n.log.Info("static cache purged", "count", len(urls), "urls", shown)
	if n.url == "" {
		return
	}
	select {
	case n.q <- urls:
	default:
		n.dropped.Add(1)
		n.log.Warn("static cache: purge webhook queue full; purge not sent", "count", len(urls))
	}
}

// Dropped returns how many purges were not sent because the queue was full.
func (n *Notifier) Dropped() uint64 { return n.dropped.Load() }

func (n *Notifier) run() {
	for {
		select {
		case <-n.quit:
			return
		case urls := <-n.q:
			n.post(urls)
		}
	}
}

func (n *Notifier) post(urls []string) {
	body, _ := json.Marshal(struct {
		URLs []string `json:"urls"`
	}{urls})
	ctx, cancel := context.WithTimeout(context.Background(), webhookTimeout)
	defer cancel()
	go func() { // Close cancels a post under way
		select {
		case <-n.quit:
			cancel()
		case <-ctx.Done():
		}
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.url, bytes.NewReader(body))
	if err != nil {
		n.log.Error("static cache: purge webhook", "err", err)
		return
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := n.client.Do(req)
	if err != nil {
		n.log.Warn("static cache: purge webhook failed", "err", err, "count", len(urls))
		return
	}
	_ = resp.Body.Close()
	if resp.StatusCode >= 300 {
		n.log.Warn("static cache: purge webhook refused", "status", resp.StatusCode, "count", len(urls))
	}
}

// Close stops posting; purges still queued are dropped.
func (n *Notifier) Close() {
	n.once.Do(func() { close(n.quit) })
	n.wg.Wait()
}
