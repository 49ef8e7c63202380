// Package cachepurge tells a shared cache in front of the portal (a
// reverse proxy, a CDN) to drop its copies of the pages a certificate's
// revocation or reissue changed, as soon as the change has committed.
//
// The verification page is already safe without it: it is answered with
// no-cache and an ETag (every use revalidated), so a cache never serves a
// stale status. The purge is for caches that do not revalidate as told and
// for the copies a cache keeps to serve while the server fails
// (stale-if-error): it sends PURGE for each URL, a request Varnish and most
// CDNs take as "drop this"; the nginx example in docs/operations.md turns
// it into a refresh of the entry.
package cachepurge

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// Purger sends the purges in the background; Changed never blocks.
type Purger struct {
	base   *url.URL
	client *http.Client
	log    *slog.Logger
	queue  chan string
}

// queueSize bounds the purges waiting: past it a purge is dropped and
// logged (the pages it names still expire after their max-age).
const queueSize = 1024

// New returns a purger of the cache at base (http(s)://host[:port][/prefix]).
func New(base string, log *slog.Logger) (*Purger, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("cache purge URL %q: want http(s)://host", base)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Purger{base: u, client: &http.Client{Timeout: 5 * time.Second}, log: log, queue: make(chan string, queueSize)}, nil
}

// Observe is the store's commit observer (ledger.Store.ObserveCommits): an
// event that changes what a certificate's verification answers queues its
// pages' purge.
func (p *Purger) Observe(e ledger.Event) {
	if e.EntityType != "certificate" {
		return
	}
	switch e.Action {
	case "certificate.revoked", "certificate.reissued", "certificate.review_requested", "certificate.review_kept":
	default:
		return
	}
	for _, u := range CertificateURLs(e.EntityID) {
		select {
		case p.queue <- u:
		default:
			p.log.Warn("cache purge queue full: purge dropped", "url", u)
		}
	}
}

// CertificateURLs are the portal's URLs that show a certificate's status:
// its verification page in each way its language is named, and its JSON.
func CertificateURLs(number string) []string {
	q := url.QueryEscape(number)
	return []string{
		"/verify?number=" + q,
		"/verify?number=" + q + "&lang=zh-CN",
		"/verify?number=" + q + "&lang=en",
		"/verify/proof?number=" + q,
	}
}

// Run sends the queued purges until ctx ends.
func (p *Purger) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case u := <-p.queue:
			p.purge(ctx, u)
		}
	}
}

func (p *Purger) purge(ctx context.Context, path string) {
	target := strings.TrimSuffix(p.base.String(), "/") + path
	req, err := http.NewRequestWithContext(ctx, "PURGE", target, nil)
	if err != nil {
		p.log.Error("cache purge", "url", target, "err", err)
		return
	}
	resp, err := p.client.Do(req)
	if err != nil {
		p.log.Warn("cache purge failed", "url", target, "err", err)
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if resp.StatusCode >= 400 && resp.StatusCode != http.StatusNotFound {
		p.log.Warn("cache purge refused", "url", target, "status", resp.StatusCode)
	}
}
