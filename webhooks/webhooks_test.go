package webhooks_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/pgtest"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/webhooks"
)

var harness *pgtest.Harness

func TestMain(m *testing.M) { pgtest.Main(m, func(h *pgtest.Harness) { harness = h }) }

// receiver is a real HTTP server on loopback that keeps what it is sent
// and fails the first fail requests with 503.
type receiver struct {
	*httptest.Server
	mu   sync.Mutex
	got  []received
	fail int
}

type received struct {
	header http.Header
	body   []byte
}

func newReceiver(t *testing.T, fail int) *receiver {
	r := &receiver{fail: fail}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		defer r.mu.Unlock()
		r.got = append(r.got, received{req.Header.Clone(), b})
		if len(r.got) <= r.fail {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) all() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

// TestWebhooksDeliverSignedAndRetried: an agency subscribes a receiver to
// notices published and certificates revoked; the data set's events of
// those kinds are posted, each signed with the subscription's secret under
// the documented header; the receiver's first answer (503) is tried again
// after the backoff and delivered; a receiver that never answers is tried
// MaxAttempts times and the delivery fails; every try is recorded, and
// subscribing and unsubscribing are logged.
func TestWebhooksDeliverSignedAndRetried(t *testing.T) {
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	clock := fixture.TodayClock(t)
	store := ledger.New(pool, clock.Now, nil)
	reg := registry.New(store)
	cs, err := certs.New(store, reg, certs.Config{}, certs.WithEventEvidence(proposals.Evidence{}))
	if err != nil {
		t.Fatal(err)
	}
	ts := tournaments.New(store, reg, proposals.Certs{Certs: cs})
	hooks := webhooks.New(store, nil, nil, webhooks.PrivateNetworks()) // the receiver is on loopback
	fixture.Agencies(t, reg, "110")

	// refusals
	agency := fixture.Agency("110")
	for _, tt := range []struct {
		actor   ledger.Actor
		url     string
		actions []string
		code    string
	}{
		{ledger.Actor{Kind: ledger.Public}, "https://example.org/hook", []string{"certificate.revoked"}, "WEBHOOK_FORBIDDEN"},
		{agency, "ftp://example.org/hook", []string{"certificate.revoked"}, "WEBHOOK_URL"},
		{agency, "https://user:pw@example.org/hook", []string{"certificate.revoked"}, "WEBHOOK_URL"},
		{agency, "https://example.org/hook", []string{"player.registered"}, "WEBHOOK_ACTIONS"},
		{agency, "https://example.org/hook", nil, "WEBHOOK_NO_ACTIONS"},
	} {
		_, err := hooks.Subscribe(ctx, tt.actor, "", tt.url, tt.actions)
		var le *ledger.Error
		if !asLedgerError(err, &le) || le.Reason.Code() != tt.code {
			t.Errorf("subscribe %s %v as %v: %v, want %s", tt.url, tt.actions, tt.actor, err, tt.code)
		}
	}

	flaky, dead := newReceiver(t, 1), newReceiver(t, 0)
	dead.Close()                                  // nobody answers there
	if _, err := hooks.Enqueue(ctx); err != nil { // the dispatcher starts at the log's end
		t.Fatal(err)
	}
	sub, err := hooks.Subscribe(ctx, agency, "sub-1", flaky.URL+"/hook", []string{"notice.published", "certificate.revoked"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := hooks.Subscribe(ctx, agency, "sub-1", flaky.URL+"/hook", []string{"notice.published", "certificate.revoked"})
	if err != nil || again.ID != sub.ID || again.Secret != sub.Secret || len(sub.Secret) != 64 {
		t.Fatalf("the retried subscription: %+v, %v; want the first, with its secret", again, err)
	}
	deadSub, err := hooks.Subscribe(ctx, fixture.Staff, "", dead.URL, []string{"certificate.revoked"})
	if err != nil {
		t.Fatal(err)
	}

	fixture.StatisticsData(t, reg, cs, ts, clock)
	want := map[string]int{}
	if err := ledger.ScanEvents(ctx, pool, 1<<62, time.Time{}, func(e ledger.LoggedEvent) error {
		want[e.Action]++
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want["notice.published"] == 0 || want["certificate.revoked"] == 0 || want["webhook.subscribed"] != 2 {
		t.Fatalf("the log: %v", want)
	}
	made := 0
	for {
		n, err := hooks.Enqueue(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		made += n
	}
	if wantMade := want["notice.published"] + 2*want["certificate.revoked"]; made != wantMade {
		t.Fatalf("%d deliveries made, want %d", made, wantMade)
	}
	for round := 0; round < webhooks.MaxAttempts; round++ {
		if _, err := hooks.Deliver(ctx); err != nil {
			t.Fatal(err)
		}
		clock.Advance(webhooks.Backoff(round+1) + time.Second)
	}

	got := flaky.all()
	if n := want["notice.published"] + want["certificate.revoked"]; len(got) != n+1 {
		t.Fatalf("the receiver got %d posts, want %d deliveries and one retry", len(got), n)
	}
	seen := map[int64]int{}
	for _, g := range got {
		if !webhooks.Verify(sub.Secret, g.header.Get(webhooks.SignatureHeader), g.body) {
			t.Errorf("a post's signature %q does not verify", g.header.Get(webhooks.SignatureHeader))
		}
		if webhooks.Verify(deadSub.Secret, g.header.Get(webhooks.SignatureHeader), g.body) {
			t.Error("a post verifies under another subscription's secret")
		}
		var b webhooks.Body
		if err := json.Unmarshal(g.body, &b); err != nil {
			t.Fatal(err)
		}
		if g.header.Get(webhooks.EventHeader) != b.Action || (b.Action != "notice.published" && b.Action != "certificate.revoked") {
			t.Errorf("post of %s under header %s", b.Action, g.header.Get(webhooks.EventHeader))
		}
		seen[b.Delivery]++
	}
	retried := 0
	for _, n := range seen {
		if n == 2 {
			retried++
		}
	}
	if retried != 1 {
		t.Errorf("%d deliveries posted twice, want the one refused with 503", retried)
	}
	// a tampered body fails
	if webhooks.Verify(sub.Secret, got[0].header.Get(webhooks.SignatureHeader), append(got[0].body, ' ')) {
		t.Error("a changed body verifies")
	}

	tries, err := hooks.Attempts(ctx, agency, sub.ID)
	if err != nil {
		t.Fatal(err)
	}
	codes := map[int]int{}
	for _, a := range tries {
		codes[a.StatusCode]++
		if a.Status != "delivered" {
			t.Errorf("delivery %d: %s", a.DeliveryID, a.Status)
		}
	}
	if codes[503] != 1 || codes[204] != len(seen) || len(tries) != len(got) {
		t.Errorf("tries: %v over %d, want one 503 and %d 204", codes, len(tries), len(seen))
	}
	deadTries, err := hooks.Attempts(ctx, fixture.Staff, deadSub.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(deadTries) != webhooks.MaxAttempts*want["certificate.revoked"] {
		t.Fatalf("the dead receiver: %d tries, want %d", len(deadTries), webhooks.MaxAttempts*want["certificate.revoked"])
	}
	last := deadTries[len(deadTries)-1]
	if last.StatusCode != 0 || last.Error == "" || last.Status != "failed" {
		t.Errorf("the last try of the dead receiver: %+v", last)
	}
	for i := 1; i < len(deadTries); i++ {
		if gap := deadTries[i].At.Sub(deadTries[i-1].At); gap < webhooks.Backoff(i) {
			t.Errorf("try %d after %v, want the backoff %v", i+1, gap, webhooks.Backoff(i))
		}
	}
	if _, err := hooks.Attempts(ctx, fixture.Agency("310"), sub.ID); err != nil {
		t.Fatal(err)
	} else if other, _ := hooks.Attempts(ctx, fixture.Agency("310"), sub.ID); len(other) != 0 {
		t.Error("another agency reads the subscription's tries")
	}

	// unsubscribed: logged, and nothing more is delivered
	if _, err := hooks.Unsubscribe(ctx, fixture.Agency("310"), "", sub.ID); err == nil {
		t.Error("another agency ended the subscription")
	}
	if _, err := hooks.Unsubscribe(ctx, agency, "", sub.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.Revoke(ctx, fixture.Staff, "", firstValid(t, cs), "复核撤销"); err != nil {
		t.Fatal(err)
	}
	if n, err := hooks.Enqueue(ctx); err != nil || n != 1 {
		t.Errorf("after unsubscribing: %d deliveries made (%v), want the dead receiver's only", n, err)
	}
	evs, err := ledger.LatestEvents(ctx, pool, []string{"webhook.unsubscribed"}, 5)
	if err != nil || len(evs) != 1 || evs[0].EntityID == "" {
		t.Errorf("the unsubscription's event: %v, %v", evs, err)
	}
}

func asLedgerError(err error, le **ledger.Error) bool { return errors.As(err, le) }

// firstValid finds a valid certificate of the data set (Beijing's 4 dan).
func firstValid(t *testing.T, cs *certs.Service) string {
	t.Helper()
	page, err := cs.ListNotices(context.Background(), certs.NoticeQuery{State: "past"})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range page.Notices {
		if n.CertificateNumber != "" {
			return n.CertificateNumber
		}
	}
	t.Fatal("no certificate issued")
	return ""
}
