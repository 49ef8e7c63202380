package kit

import (
	"net"
	"net/http"
)

// Limiter is one rate limit kept per client: Allow spends one request of
// the client's budget (client is its address) or returns the refusal, a
// coded one (RATE_LIMITED); AllowN spends n, all or none, for a request
// that counts as n (a batch of numbers to verify).
type Limiter interface {
	Allow(client string) error
	AllowN(client string, n int) error
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
			s.tooMany(w, r, err)
			return
		}
		h(w, r)
	}
}

// Charge spends n of the client's budget for a request that counts as n
// (a batch of n numbers to verify), once the handler knows n; past the
// limit it answers 429 and returns false. A handler that charges is not
// wrapped in Limited.
func (s *Site) Charge(w http.ResponseWriter, r *http.Request, l Limiter, n int) bool {
	if l == nil || n <= 0 {
		return true
	}
	if err := l.AllowN(s.ClientHost(r), n); err != nil {
		s.tooMany(w, r, err)
		return false
	}
	return true
}

// tooMany answers a request refused by a rate limit. The access log leaves
// it out: the limiter logs its refusals as one line per client and minute,
// and a line per refused request let one client write 49 000 lines in
// 10 s (issue 31).
func (s *Site) tooMany(w http.ResponseWriter, r *http.Request, err error) {
	quiet(r)
	pg := s.Page(w, r, "error")
	w.Header().Set("Retry-After", "60")
	s.Render(w, r, http.StatusTooManyRequests, MessagePage(pg, pg.T["error"], s.UserError(r, pg, err)))
}

// Spend spends one request of the client's budget, returning the limit's
// refusal (nil: within it, or no limit) for a page that shows it beside
// its form: a form checks its input first, so a refused form costs
// nothing, and a refusal by the limit keeps what was typed (issue 24).
func (s *Site) Spend(r *http.Request, l Limiter) error {
	if l == nil {
		return nil
	}
	err := l.Allow(s.ClientHost(r))
	if err != nil {
		quiet(r)
	}
	return err
}
