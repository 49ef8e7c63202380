// Package ratelimit bounds how often one client may call a public endpoint
// (verification, objections, sign-in, adjudication): a token bucket per
// client address (or per key with a quota of its own), timed by the
// injected clock, a request spending as many tokens as it counts for (a
// batch, one per number); and how many calls a client may have under way
// at once (Gate). Refusals are logged as one summary line per client and
// minute, so a flood cannot flood the log too.
package ratelimit

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// ReasonRateLimited is the refusal of a request over its client's limit:
// 429 on the portal, RESOURCE_EXHAUSTED over gRPC.
var ReasonRateLimited = ledger.NewReason(ledger.Exhausted, "RATE_LIMITED",
	"请求过于频繁（{limit}），请稍后再试。", "too many requests ({limit}); try again later.")

// ReasonOverQuota is the refusal of one request that counts for more than
// its client's whole budget (a batch of more numbers than the limit lets
// anyone verify at once): waiting does not help, a smaller request does.
var ReasonOverQuota = ledger.NewReason(ledger.Exhausted, "OVER_QUOTA",
	"本次请求计 {count} 次，超过每个客户端的限额（{limit}），请一次不超过 {max} 个。",
	"this request counts as {count}, more than a client's limit ({limit}) allows at once: send at most {max}.")

// IsSummarised reports a refusal of this package: its limiter or gate
// logs it in its summary, so a per-request log line would only repeat it.
func IsSummarised(err error) bool {
	e, ok := ledger.AsError(err)
	return ok && (e.Reason == ReasonRateLimited || e.Reason == ReasonOverQuota || e.Reason == ReasonTooManyInFlight)
}

// Limit is N requests per Per, with bursts of up to N.
type Limit struct {
	N   int
	Per time.Duration
}

// ParseLimit reads a setting like "60/1m"; "", "0" or "off" is no limit.
func ParseLimit(s string) (Limit, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "0" || s == "off" {
		return Limit{}, nil
	}
	n, per, ok := strings.Cut(s, "/")
	count, err := strconv.Atoi(n)
	if !ok || err != nil || count < 0 {
		return Limit{}, fmt.Errorf("rate limit %q: want count/duration, e.g. 60/1m", s)
	}
	d, err := time.ParseDuration(per)
	if err != nil || d <= 0 {
		return Limit{}, fmt.Errorf("rate limit %q: want count/duration, e.g. 60/1m", s)
	}
	return Limit{N: count, Per: d}, nil
}

func (l Limit) String() string { return fmt.Sprintf("%d/%s", l.N, l.Per) }

// Words says the limit as a person reads it, in Chinese and English:
// "每小时 5 次" and "5 per hour", "每 10 分钟 30 次" and "30 per 10
// minutes"; the largest whole unit (day, hour, minute, second) is used.
func (l Limit) Words() (zh, en string) {
	n := strconv.Itoa(l.N)
	for _, u := range []struct {
		d      time.Duration
		zh, en string
	}{
		{24 * time.Hour, "天", "day"},
		{time.Hour, "小时", "hour"},
		{time.Minute, "分钟", "minute"},
		{time.Second, "秒", "second"},
		{time.Millisecond, "毫秒", "millisecond"},
	} {
		switch k := l.Per / u.d; {
		case l.Per%u.d != 0 || k == 0:
			continue
		case k == 1:
			return "每" + u.zh + " " + n + " 次", n + " per " + u.en
		default:
			return fmt.Sprintf("每 %d %s %s 次", k, u.zh, n), fmt.Sprintf("%s per %d %ss", n, k, u.en)
		}
	}
	return "每 " + l.Per.String() + " " + n + " 次", n + " per " + l.Per.String()
}

// Off reports whether the limit lets everything through.
func (l Limit) Off() bool { return l.N <= 0 || l.Per <= 0 }

type bucket struct {
	limit  Limit // the limit it was filled under
	tokens float64
	last   time.Time
}

// Limiter is one named limit kept per client.
type Limiter struct {
	name  string
	limit Limit
	now   func() time.Time
	log   *slog.Logger
	// shared, when set, keeps the counts in PostgreSQL (Share)
	shared Windows

	mu      sync.Mutex // the buckets and the summary
	buckets map[string]*bucket
	refused summary
}

// Name is the limit's name (verify, objection, login).
func (l *Limiter) Name() string { return l.name }

// Refused is how many requests the limiter has refused since it was made.
func (l *Limiter) Refused() int64 {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.refused.total
}

// New returns a limiter named for its endpoints (in its log lines).
func New(name string, l Limit, now func() time.Time, log *slog.Logger) *Limiter {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Limiter{name: name, limit: l, now: now, log: log, buckets: map[string]*bucket{}, refused: newSummary()}
}

// Allow takes one token of the bucket of client (an address, bucketed by
// Key), or returns the RATE_LIMITED refusal. A nil limiter allows
// everything. Institutions' verification keys are not charged here: their
// quotas are counted in PostgreSQL so that every server spends one quota
// (registry.SpendInstitutionKey, charged by internal/api's rate-limit
// interceptor in place of the address's bucket).
func (l *Limiter) Allow(client string) error { return l.AllowN(client, 1) }

// AllowN takes n tokens of the client's bucket, all or none, as a request
// that counts as n (a batch of n numbers to verify costs what n
// verifications one by one would): RATE_LIMITED when the bucket has fewer,
// OVER_QUOTA when n is more than the bucket ever holds (the request could
// never pass, however long one waits).
func (l *Limiter) AllowN(client string, n int) error {
	if l == nil {
		return nil
	}
	n = max(n, 1)
	now := l.now()
	limit, client := l.limit, Key(client)
	if limit.Off() {
		return nil
	}
	if l.shared != nil { // set before use: read without the lock
		return l.spendShared(limit, client, n, now)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.flushLocked(now)
	b := l.buckets[client]
	if b == nil || b.limit != limit {
		b = &bucket{limit: limit, tokens: float64(limit.N), last: now}
		l.buckets[client] = b
	}
	if el := now.Sub(b.last).Seconds(); el > 0 {
		b.tokens = min(float64(limit.N), b.tokens+el*float64(limit.N)/limit.Per.Seconds())
	}
	b.last = now
	if float64(n) <= b.tokens {
		b.tokens -= float64(n)
		return nil
	}
	return l.refuse(limit, client, n)
}

// refuse counts a refusal (l.mu held) and words it.
func (l *Limiter) refuse(limit Limit, client string, n int) error {
	l.refused.add(client)
	zh, en := limit.Words()
	if n > limit.N {
		return ReasonOverQuota.With(ledger.Value("count", strconv.Itoa(n)), ledger.Value("max", strconv.Itoa(limit.N)), ledger.Words("limit", zh, en))
	}
	return ReasonRateLimited.With(ledger.Words("limit", zh, en))
}

// Windows keeps counts shared by every server process on one database:
// the kernel's store (ledger.Store.SpendRateWindow).
type Windows interface {
	SpendRateWindow(ctx context.Context, name, client string, start, end time.Time, n, max int) (bool, error)
}

// Share makes the limiter count in w rather than in this process: N
// servers behind a balancer then give one budget, not N. For the
// low-volume limits (objections, sign-ins, and an institution key's quota,
// whose bucket is "key:" and the key): a spend is a round trip to the
// database. The counts are fixed windows of the limit's period (N per
// window), not a token bucket. Set it before the limiter is used.
func (l *Limiter) Share(w Windows) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.shared = w
}

// sharedTimeout bounds one shared spend; past it (or on any failure of the
// database) the request is let through and the failure logged: the
// database that cannot count cannot store an objection either.
const sharedTimeout = 2 * time.Second

func (l *Limiter) spendShared(limit Limit, client string, n int, now time.Time) error {
	start := now.Truncate(limit.Per)
	ctx, cancel := context.WithTimeout(context.Background(), sharedTimeout)
	defer cancel()
	ok, err := l.shared.SpendRateWindow(ctx, l.name, client, start, start.Add(limit.Per), n, limit.N)
	if err != nil {
		l.log.Warn("shared rate limit not counted; request let through", "limit", l.name, "err", err)
		return nil
	}
	if ok {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.flushLocked(now)
	return l.refuse(limit, client, n)
}

// Flush logs the refusals of a minute that has ended, one line per client,
// and forgets buckets that are full again. Allow calls it; the server also
// calls it every minute so a last burst is not left unlogged.
func (l *Limiter) Flush() {
	if l == nil {
		return
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.flushLocked(now)
}

func (l *Limiter) flushLocked(now time.Time) {
	if !l.refused.flush(now, l.log, "rate limited", "limit", l.name, "per", l.limit.String()) {
		return
	}
	for client, b := range l.buckets {
		if now.Sub(b.last) >= b.limit.Per { // refilled: as good as new
			delete(l.buckets, client)
		}
	}
}

// summary counts a minute's refusals per client, to be logged as one line
// per client when the minute ends: a flood of refused requests must not
// become a flood of log lines (49 000 in 10 s from one client, issue 31).
type summary struct {
	refused map[string]int
	minute  time.Time
	total   int64 // refusals since start, for metrics
}

func newSummary() summary { return summary{refused: map[string]int{}} }

func (s *summary) add(client string) {
	s.refused[client]++
	s.total++
}

// flush logs the counts of a minute that has ended, msg with attrs and
// the client's count on each line, and reports whether one had.
func (s *summary) flush(now time.Time, log *slog.Logger, msg string, attrs ...any) bool {
	m := now.Truncate(time.Minute)
	if !m.After(s.minute) {
		return false
	}
	for client, n := range s.refused {
		log.Warn(msg, append(attrs, "client", client, "refused", n, "minute", s.minute.Format(time.RFC3339))...)
	}
	clear(s.refused)
	s.minute = m
	return true
}

// Proxies are the addresses whose X-Forwarded-For is believed.
type Proxies []netip.Prefix

// ParseProxies reads a comma-separated list of CIDRs (or single addresses).
func ParseProxies(s string) (Proxies, error) {
	var out Proxies
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		p, err := netip.ParsePrefix(f)
		if err != nil {
			a, aerr := netip.ParseAddr(f)
			if aerr != nil {
				return nil, fmt.Errorf("trusted proxy %q: want a CIDR such as 10.0.0.0/8: %w", f, err)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

func (ps Proxies) trusts(a netip.Addr) bool {
	for _, p := range ps {
		if p.Contains(a.Unmap()) {
			return true
		}
	}
	return false
}

// Client is the address a request comes from: the peer's, unless the peer
// is a trusted proxy, then the right-most address of X-Forwarded-For that
// is not itself a trusted proxy (the left-most parts are the client's own
// say and may be forged).
func (ps Proxies) Client(remote string, forwardedFor []string) string {
	host := remote
	if h, _, err := net.SplitHostPort(remote); err == nil {
		host = h
	}
	a, err := netip.ParseAddr(host)
	if err != nil || !ps.trusts(a) {
		return host
	}
	var hops []string
	for _, v := range forwardedFor {
		hops = append(hops, strings.Split(v, ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		h, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		if !ps.trusts(h) {
			return h.Unmap().String()
		}
	}
	return host
}

// Key is the bucket of a client address: an IPv4 address, or the /64 of an
// IPv6 one (one subscriber's usual allocation, so rotating addresses in it
// gains nothing).
func Key(client string) string {
	a, err := netip.ParseAddr(client)
	if err != nil {
		return client
	}
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}
