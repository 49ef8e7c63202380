package web

import (
	"net"
	"net/http"
)

// Limiter is one rate limit kept per client: Allow spends one request of
// the client's budget (client is its address) or returns the refusal, a
// coded one (RATE_LIMITED).
type Limiter interface {
	Allow(client string) error
}

// Proxies name the client of a request: the peer, unless the peer is a
// trusted proxy, then the client it forwarded for.
type Proxies interface {
	Client(remote string, forwardedFor []string) string
}

// Limits are the portal's rate limits; a nil one is no limit.
type Limits struct {
	Verify    Limiter // /verify, /verify/batch
	Objection Limiter // objections to a notice
	Login     Limiter // sign-in attempts
}

// clientHost is the request's client address: the peer's, or what a
// trusted proxy forwarded.
func (p *site) clientHost(r *http.Request) string {
	if p.proxies == nil {
		if h, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
			return h
		}
		return r.RemoteAddr
	}
	return p.proxies.Client(r.RemoteAddr, r.Header.Values("X-Forwarded-For"))
}

// limited refuses a request over its client's limit with 429 and the
// RATE_LIMITED message in the page's language.
func (p *site) limited(l Limiter, h http.HandlerFunc) http.HandlerFunc {
	if l == nil {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) {
		if err := l.Allow(p.clientHost(r)); err != nil {
			pg := p.page(w, r, "error")
			w.Header().Set("Retry-After", "60")
			p.render(w, r, http.StatusTooManyRequests, messagePage(pg, pg.T["error"], p.userError(r, pg, err)))
			return
		}
		h(w, r)
	}
}
