// Package webhooks tells programs of the registry's public events as they
// happen, so that nobody has to poll: an agency (or staff, for a
// tournament site) subscribes a URL to kinds of events (notice published,
// objection lodged, notice ended, certificate issued, revoked, reissued);
// the dispatcher follows the event log and posts each such event to each
// subscription, signed with HMAC-SHA256 under the subscription's own
// secret, retried with a growing pause until the receiver answers 2xx or
// the tries run out. Every delivery and every try is kept; subscribing and
// unsubscribing are logged as events (tables webhook_subscriptions,
// webhook_deliveries, webhook_attempts, webhook_cursor).
//
// A delivery says which event happened to what (action, entity, time, the
// log's id), never the event's payload: some payloads hold personal data
// (an objector's name), and the receiver reads the details from the public
// pages, the API or the open data as anyone may.
package webhooks

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
)

// Actions are the kinds of events a subscription may ask for.
var Actions = []string{"notice.published", "objection.lodged", "notice.completed",
	"certificate.issued", "certificate.revoked", "certificate.reissued"}

// The headers of a delivery.
const (
	// SignatureHeader is "t=<unix seconds>,v1=<hex HMAC-SHA256>", the MAC
	// over "<t>.<body>" under the subscription's secret (docs/open-data.md).
	SignatureHeader = "Dankyu-Signature"
	EventHeader     = "Dankyu-Event"    // the action
	DeliveryHeader  = "Dankyu-Delivery" // the delivery's id: the same on each retry
)

// MaxAttempts is how many times a delivery is tried.
const MaxAttempts = 8

// MaxURLLen bounds a subscription's URL.
const MaxURLLen = 500

// Backoff is the pause after the n-th failed try (n from 1): 30 s doubled
// each time, at most an hour.
func Backoff(n int) time.Duration {
	d := 30 * time.Second << min(max(n-1, 0), 7)
	return min(d, time.Hour)
}

// Subscription is a URL subscribed to kinds of events.
type Subscription struct {
	ID        int64
	Owner     string // the actor who subscribed (agency:110, staff:li)
	URL       string
	Actions   []string
	Secret    string // hex; shown to the subscriber when made, "" in lists
	CreatedAt time.Time
	Ended     bool
}

// Redacted is what an idempotency record keeps: no secret.
func (s Subscription) Redacted() any { s.Secret = ""; return s }

// Reread fills the secret in again from the row, for a retried request.
func (s *Subscription) Reread(ctx context.Context, q ledger.Querier) error {
	var secret []byte
	if err := q.QueryRow(ctx, `SELECT secret FROM webhook_subscriptions WHERE id = $1`, s.ID).Scan(&secret); err != nil {
		return fmt.Errorf("webhook subscription %d: %w", s.ID, err)
	}
	s.Secret = hex.EncodeToString(secret)
	return nil
}

// Service keeps the subscriptions and delivers.
type Service struct {
	store  *ledger.Store
	client *http.Client
	log    *slog.Logger
	// private: receivers may be on loopback, private or link-local
	// addresses (PrivateNetworks)
	private bool
}

// Option changes a Service.
type Option func(*Service)

// PrivateNetworks lets subscriptions name, and deliveries reach, receivers
// on loopback, private and link-local addresses: for an association whose
// receivers are on its own network, and for tests. Without it the registry
// posts only to public addresses, so that a subscriber cannot make it probe
// the machines beside it (its database, its metrics, a cloud's metadata
// address) and read the answers off the delivery attempts.
func PrivateNetworks() Option { return func(s *Service) { s.private = true } }

// New returns the service; client posts the deliveries (nil: one with a
// 10 s timeout that follows no redirect and, unless PrivateNetworks, dials
// public addresses only, checked on the address dialled, after the name is
// resolved).
func New(store *ledger.Store, client *http.Client, log *slog.Logger, opts ...Option) *Service {
	s := &Service{store: store, client: client, log: log}
	for _, o := range opts {
		o(s)
	}
	if s.client == nil {
		dialer := &net.Dialer{Timeout: 5 * time.Second}
		if !s.private {
			dialer.Control = refuseNonPublic
		}
		s.client = &http.Client{Timeout: 10 * time.Second,
			Transport: &http.Transport{DialContext: dialer.DialContext, TLSHandshakeTimeout: 5 * time.Second,
				MaxIdleConnsPerHost: 2, IdleConnTimeout: 90 * time.Second, ForceAttemptHTTP2: true},
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	return s
}

// errNotPublic is a delivery refused before connecting: its address is
// not a public one.
var errNotPublic = errors.New("not a public address: the registry delivers to public addresses only")

// refuseNonPublic is the dialer's check of the address it is about to
// connect to (a name already resolved, so a name that resolves to an
// inside address is refused as the address itself would be).
func refuseNonPublic(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !publicAddr(ip) {
		return fmt.Errorf("%s: %w", host, errNotPublic)
	}
	return nil
}

// sharedAddressSpace is 100.64.0.0/10, a carrier's inside addresses.
var sharedAddressSpace = netip.MustParsePrefix("100.64.0.0/10")

// publicAddr: a global unicast address that is not a private, shared or
// otherwise inside one.
func publicAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsGlobalUnicast() && !ip.IsPrivate() && !sharedAddressSpace.Contains(ip)
}

// insideHost says a URL's host names an inside address outright: a
// literal non-public address or localhost. (A name that resolves to one
// is refused when it is dialled.)
func insideHost(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(strings.Trim(h, "[]"))
	return err == nil && !publicAddr(ip)
}

// mayOwn: agencies and staff subscribe.
func mayOwn(a ledger.Actor) error {
	if a.Kind == ledger.AgencyActor || a.IsStaff() {
		return nil
	}
	return ReasonWebhookForbidden.New()
}

// checkURL accepts an absolute http(s) URL without user information,
// whose host is not an inside address unless PrivateNetworks.
func (s *Service) checkURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || len(raw) > MaxURLLen || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
		return "", ReasonWebhookURL.OnField("webhook_url", "value", clip(raw))
	}
	if !s.private && insideHost(u.Hostname()) {
		return "", ReasonWebhookInside.OnField("webhook_url", "value", clip(u.String()))
	}
	return u.String(), nil
}

func clip(s string) string {
	if rs := []rune(s); len(rs) > 80 {
		return string(rs[:80]) + "…"
	}
	return s
}

// Subscribe subscribes url to the actions (each one of Actions); the
// answer holds the secret the deliveries are signed with.
func (s *Service) Subscribe(ctx context.Context, actor ledger.Actor, key, rawURL string, actions []string) (Subscription, error) {
	if err := mayOwn(actor); err != nil {
		return Subscription{}, err
	}
	u, err := s.checkURL(rawURL)
	if err != nil {
		return Subscription{}, err
	}
	if len(actions) == 0 {
		return Subscription{}, ReasonWebhookNoActions.OnField("webhook_actions")
	}
	acts := slices.Clone(actions)
	slices.Sort(acts)
	acts = slices.Compact(acts)
	for _, a := range acts {
		if !slices.Contains(Actions, a) {
			return Subscription{}, ReasonWebhookActions.OnField("webhook_actions", "value", clip(a))
		}
	}
	req := struct {
		URL     string
		Actions []string
	}{u, acts}
	return ledger.Mutate(ctx, s.store, actor, key, "Subscribe", req, func(tx *ledger.Tx, now time.Time) (Subscription, error) {
		secret := make([]byte, 32)
		_, _ = rand.Read(secret)
		sub := Subscription{Owner: actor.String(), URL: u, Actions: acts, Secret: hex.EncodeToString(secret), CreatedAt: now}
		// the log's position, not the clock, says which events come after
		pos, _, err := ledger.LogPosition(ctx, tx)
		if err != nil {
			return Subscription{}, err
		}
		if err := tx.QueryRow(ctx, `INSERT INTO webhook_subscriptions (owner, url, actions, secret, from_event, created_at)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, sub.Owner, u, acts, secret, pos, now).Scan(&sub.ID); err != nil {
			return Subscription{}, fmt.Errorf("subscribe: %w", err)
		}
		return sub, ledger.Append(ctx, tx, now, actor, "webhook", strconv.FormatInt(sub.ID, 10),
			SubscribedPayload{Actions: acts, URL: u})
	})
}

// Unsubscribe ends a subscription: its owner's, or any for staff. Its
// pending deliveries are not tried again.
func (s *Service) Unsubscribe(ctx context.Context, actor ledger.Actor, key string, id int64) (Subscription, error) {
	if err := mayOwn(actor); err != nil {
		return Subscription{}, err
	}
	return ledger.Mutate(ctx, s.store, actor, key, "Unsubscribe", id, func(tx *ledger.Tx, now time.Time) (Subscription, error) {
		sub, err := scanSubscription(tx.QueryRow(ctx, `SELECT `+subscriptionColumns+` FROM webhook_subscriptions WHERE id = $1 FOR UPDATE`, id))
		if errors.Is(err, pgx.ErrNoRows) || (err == nil && !actor.IsStaff() && sub.Owner != actor.String()) {
			return Subscription{}, ReasonNoSuchWebhook.New("id", strconv.FormatInt(id, 10))
		}
		if err != nil {
			return Subscription{}, fmt.Errorf("unsubscribe %d: %w", id, err)
		}
		if sub.Ended {
			return sub, nil
		}
		if _, err := tx.Exec(ctx, `UPDATE webhook_subscriptions SET ended_at = $2 WHERE id = $1`, id, now); err != nil {
			return Subscription{}, fmt.Errorf("unsubscribe %d: %w", id, err)
		}
		if _, err := tx.Exec(ctx, `UPDATE webhook_deliveries SET status = 'failed' WHERE subscription_id = $1 AND status = 'pending'`, id); err != nil {
			return Subscription{}, fmt.Errorf("unsubscribe %d: %w", id, err)
		}
		sub.Ended = true
		return sub, ledger.Append(ctx, tx, now, actor, "webhook", strconv.FormatInt(id, 10), UnsubscribedPayload{URL: sub.URL})
	})
}

const subscriptionColumns = `id, owner, url, actions, created_at, ended_at IS NOT NULL`

func scanSubscription(r pgx.Row) (Subscription, error) {
	var s Subscription
	err := r.Scan(&s.ID, &s.Owner, &s.URL, &s.Actions, &s.CreatedAt, &s.Ended)
	return s, err
}

// Subscriptions lists the actor's subscriptions (staff: everyone's), the
// secrets left out.
func (s *Service) Subscriptions(ctx context.Context, actor ledger.Actor) ([]Subscription, error) {
	if err := mayOwn(actor); err != nil {
		return nil, err
	}
	rows, err := s.store.DB().Query(ctx, `SELECT `+subscriptionColumns+` FROM webhook_subscriptions
		WHERE $1 OR owner = $2 ORDER BY id`, actor.IsStaff(), actor.String())
	if err != nil {
		return nil, fmt.Errorf("webhook subscriptions: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Subscription, error) { return scanSubscription(r) })
}

// Attempt is one try of a delivery.
type Attempt struct {
	DeliveryID int64
	EventID    int64
	Attempt    int
	At         time.Time
	StatusCode int // 0: no answer
	Error      string
	Status     string // the delivery's: pending, delivered, failed
}

// Attempts lists a subscription's tries, oldest first (its owner or staff).
func (s *Service) Attempts(ctx context.Context, actor ledger.Actor, id int64) ([]Attempt, error) {
	if err := mayOwn(actor); err != nil {
		return nil, err
	}
	rows, err := s.store.DB().Query(ctx, `SELECT d.id, d.event_id, a.attempt, a.at, a.status_code, a.error, d.status
		FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
		JOIN webhook_subscriptions s ON s.id = d.subscription_id
		WHERE s.id = $1 AND ($2 OR s.owner = $3) ORDER BY a.at, d.id, a.attempt`, id, actor.IsStaff(), actor.String())
	if err != nil {
		return nil, fmt.Errorf("webhook attempts: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Attempt, error) {
		var a Attempt
		err := r.Scan(&a.DeliveryID, &a.EventID, &a.Attempt, &a.At, &a.StatusCode, &a.Error, &a.Status)
		return a, err
	})
}

// Body is what a delivery posts, as JSON.
type Body struct {
	Delivery   int64  `json:"delivery"`
	Event      int64  `json:"event"` // the event log's id (/log/entries)
	Action     string `json:"action"`
	EntityType string `json:"entity_type"`
	EntityID   string `json:"entity_id"`
	At         string `json:"at"` // RFC 3339
}

// Sign is the signature header's value for a body sent at t.
func Sign(secret []byte, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(ts + "."))
	m.Write(body)
	return "t=" + ts + ",v1=" + hex.EncodeToString(m.Sum(nil))
}

// Verify checks a signature header against the body with the secret (hex,
// as Subscribe gave it), for receivers in Go and for the tests; it does not
// judge the time (a receiver refuses old ones as it sees fit).
func Verify(secretHex, header string, body []byte) bool {
	secret, err := hex.DecodeString(secretHex)
	if err != nil {
		return false
	}
	var ts, mac string
	for part := range strings.SplitSeq(header, ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			mac = v
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return false
	}
	want := Sign(secret, time.Unix(sec, 0), body)
	return hmac.Equal([]byte(want), []byte("t="+ts+",v1="+mac))
}

// batch bounds one round of the dispatcher.
const batch = 100

// Enqueue reads the log after the dispatcher's position and makes a
// delivery of each event of a subscribed kind for each live subscription,
// moving the position on in the same transaction. It returns how many
// deliveries it made.
func (s *Service) Enqueue(ctx context.Context) (int, error) {
	tx, err := s.store.DB().Begin(ctx)
	if err != nil {
		return 0, fmt.Errorf("webhooks enqueue: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	var cursor int64
	err = tx.QueryRow(ctx, `SELECT event_id FROM webhook_cursor FOR UPDATE`).Scan(&cursor)
	if errors.Is(err, pgx.ErrNoRows) {
		// a new dispatcher starts at the log's end: subscriptions get what
		// happens after them, not the history
		if cursor, _, err = ledger.LogPosition(ctx, tx); err != nil {
			return 0, err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO webhook_cursor (event_id) VALUES ($1) ON CONFLICT DO NOTHING`, cursor); err != nil {
			return 0, fmt.Errorf("webhooks enqueue: %w", err)
		}
		return 0, tx.Commit(ctx)
	}
	if err != nil {
		return 0, fmt.Errorf("webhooks enqueue: %w", err)
	}
	evs, err := ledger.EventsAfter(ctx, tx, cursor, Actions, batch)
	if err != nil {
		return 0, err
	}
	if len(evs) == 0 {
		return 0, nil
	}
	now := s.store.Now()
	made := 0
	for _, e := range evs {
		// to the subscriptions made before the event only
		tag, err := tx.Exec(ctx, `INSERT INTO webhook_deliveries (subscription_id, event_id, status, next_at, created_at)
			SELECT id, $1, 'pending', $2, $2 FROM webhook_subscriptions
			WHERE ended_at IS NULL AND $3 = ANY(actions) AND from_event < $1
			ON CONFLICT DO NOTHING`, e.ID, now, e.Action)
		if err != nil {
			return 0, fmt.Errorf("webhooks enqueue: %w", err)
		}
		made += int(tag.RowsAffected())
	}
	if _, err := tx.Exec(ctx, `UPDATE webhook_cursor SET event_id = $1`, evs[len(evs)-1].ID); err != nil {
		return 0, fmt.Errorf("webhooks enqueue: %w", err)
	}
	return made, tx.Commit(ctx)
}

// due is a delivery to try now.
type due struct {
	id, event, sub int64
	attempts       int
	url            string
	secret         []byte
}

// Deliver tries the deliveries that are due, one by one: a 2xx answer
// delivers, anything else waits Backoff and is tried again, until
// MaxAttempts; every try is recorded. It returns how many it tried.
func (s *Service) Deliver(ctx context.Context) (int, error) {
	now := s.store.Now()
	rows, err := s.store.DB().Query(ctx, `SELECT d.id, d.event_id, d.subscription_id, d.attempts, s.url, s.secret
		FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
		WHERE d.status = 'pending' AND d.next_at <= $1 ORDER BY d.next_at, d.id LIMIT $2`, now, batch)
	if err != nil {
		return 0, fmt.Errorf("webhooks due: %w", err)
	}
	ds, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (due, error) {
		var d due
		err := r.Scan(&d.id, &d.event, &d.sub, &d.attempts, &d.url, &d.secret)
		return d, err
	})
	if err != nil {
		return 0, fmt.Errorf("webhooks due: %w", err)
	}
	for i := range ds {
		if err := s.try(ctx, &ds[i]); err != nil {
			return i, err
		}
	}
	return len(ds), nil
}

// try posts one delivery and records the try; several dispatchers may run:
// the claim on the row (its attempts unchanged) makes one of them try it.
func (s *Service) try(ctx context.Context, d *due) error {
	evs, err := ledger.EventsAfter(ctx, s.store.DB(), d.event-1, Actions, 1)
	if err != nil {
		return err
	}
	if len(evs) == 0 || evs[0].ID != d.event {
		return fmt.Errorf("webhook delivery %d: event %d not in the log", d.id, d.event)
	}
	e := evs[0]
	body, err := json.Marshal(Body{Delivery: d.id, Event: e.ID, Action: e.Action, EntityType: e.EntityType, EntityID: e.EntityID,
		At: e.At.UTC().Format(time.RFC3339)})
	if err != nil {
		return err
	}
	// claim: move next_at ahead so that another dispatcher leaves it alone
	// while this one posts
	now := s.store.Now()
	tag, err := s.store.DB().Exec(ctx, `UPDATE webhook_deliveries SET next_at = $3
		WHERE id = $1 AND attempts = $2 AND status = 'pending'`, d.id, d.attempts, now.Add(time.Minute))
	if err != nil {
		return fmt.Errorf("webhook delivery %d: %w", d.id, err)
	}
	if tag.RowsAffected() == 0 {
		return nil
	}
	code, errText := s.post(ctx, d, e.Action, body, now)
	n := d.attempts + 1
	status, next := "pending", now.Add(Backoff(n))
	switch {
	case code >= 200 && code < 300:
		status = "delivered"
	case n >= MaxAttempts:
		status = "failed"
	}
	_, err = s.store.DB().Exec(ctx, `WITH a AS (INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, error)
			VALUES ($1, $2, $3, $4, $5))
		UPDATE webhook_deliveries SET attempts = $2, status = $6, next_at = $7 WHERE id = $1`,
		d.id, n, now, code, errText, status, next)
	if err != nil {
		return fmt.Errorf("webhook delivery %d: %w", d.id, err)
	}
	s.log.InfoContext(ctx, "webhook delivery", "delivery", d.id, "subscription", d.sub, "attempt", n, "status", code, "outcome", status)
	return nil
}

// maxError bounds the error text kept of a try.
const maxError = 300

func (s *Service) post(ctx context.Context, d *due, action string, body []byte, now time.Time) (int, string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.url, bytes.NewReader(body))
	if err != nil {
		return 0, clip(err.Error())
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "dankyu-webhooks/1")
	req.Header.Set(SignatureHeader, Sign(d.secret, now, body))
	req.Header.Set(EventHeader, action)
	req.Header.Set(DeliveryHeader, strconv.FormatInt(d.id, 10))
	resp, err := s.client.Do(req)
	if err != nil {
		msg := err.Error()
		if len(msg) > maxError {
			msg = msg[:maxError]
		}
		return 0, msg
	}
	resp.Body.Close()
	return resp.StatusCode, ""
}

// Run enqueues and delivers every interval until ctx ends.
func (s *Service) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := s.Enqueue(ctx); err != nil && ctx.Err() == nil {
			s.log.ErrorContext(ctx, "webhooks enqueue", "err", err)
		}
		if _, err := s.Deliver(ctx); err != nil && ctx.Err() == nil {
			s.log.ErrorContext(ctx, "webhooks deliver", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
