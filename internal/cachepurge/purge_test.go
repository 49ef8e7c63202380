package cachepurge

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// TestRevocationPurgesItsPages: a committed revocation sends PURGE for
// each URL of the certificate's verification; other events send none.
func TestRevocationPurgesItsPages(t *testing.T) {
	var mu sync.Mutex
	var got []string
	cache := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, r.Method+" "+r.URL.RequestURI())
	}))
	defer cache.Close()
	p, err := New(cache.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go p.Run(ctx)
	p.Observe(ledger.Event{Action: "certificate.issued", EntityType: "certificate", EntityID: "110260001"})
	p.Observe(ledger.Event{Action: "player.registered", EntityType: "player", EntityID: "7"})
	p.Observe(ledger.Event{Action: "certificate.revoked", EntityType: "certificate", EntityID: "110260002"})
	want := []string{"PURGE /verify?number=110260002", "PURGE /verify?number=110260002&lang=zh-CN",
		"PURGE /verify?number=110260002&lang=en", "PURGE /verify/proof?number=110260002"}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		done := slices.Equal(got, want)
		n := len(got)
		mu.Unlock()
		if done {
			break
		}
		if n > len(want) || time.Now().After(deadline) {
			t.Fatalf("purges %q, want %q", got, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := New("cache:6081", nil); err == nil {
		t.Error("a purge URL without a scheme accepted")
	}
}
