package kit

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

// ClientHost is the request's client address: the peer's, or what a
// trusted proxy forwarded.
func (s *Site) ClientHost(r *http.Request) string {
	if s.proxies == nil {
		if h, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
			return h
		}
		return r.RemoteAddr
	}
	return s.proxies.Client(r.RemoteAddr, r.Header.Values("X-Forwarded-For"))
}

// Limited refuses a request over its client's limit with 429 and the
// RATE_LIMITED message in the page's language.
func (s *Site) Limited(l Limiter, h http.HandlerFunc) http.HandlerFunc {
	if l == nil {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) {
		if err := l.Allow(s.ClientHost(r)); err != nil {
			pg := s.Page(w, r, "error")
			w.Header().Set("Retry-After", "60")
			s.Render(w, r, http.StatusTooManyRequests, MessagePage(pg, pg.T["error"], s.UserError(r, pg, err)))
			return
		}
		h(w, r)
	}
}
