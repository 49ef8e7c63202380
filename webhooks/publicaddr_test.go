package webhooks

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
)

// TestInsideHosts: the hosts a subscription may not name without
// PrivateNetworks, written as addresses or as localhost.
func TestInsideHosts(t *testing.T) {
	for _, tt := range []struct {
		host   string
		inside bool
	}{
		{"127.0.0.1", true}, {"127.8.9.10", true}, {"::1", true}, {"[::1]", true}, {"localhost", true}, {"LOCALHOST.", true},
		{"api.localhost", true}, {"10.0.0.1", true}, {"172.16.5.4", true}, {"192.168.1.1", true}, {"169.254.169.254", true},
		{"100.64.0.1", true}, {"0.0.0.0", true}, {"::", true}, {"fe80::1", true}, {"fd00::1", true}, {"::ffff:10.0.0.1", true},
		{"224.0.0.1", true}, {"203.0.113.9", false}, {"2001:db8::1", false}, {"example.org", false}, {"localhost.example.org", false},
	} {
		if got := insideHost(tt.host); got != tt.inside {
			t.Errorf("insideHost(%q) = %v, want %v", tt.host, got, tt.inside)
		}
	}
}

// TestDeliveriesDialPublicAddressesOnly: the default client refuses to
// connect to an inside address however the URL names it (the check is on
// the address dialled), and PrivateNetworks lets it.
func TestDeliveriesDialPublicAddressesOnly(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	t.Cleanup(srv.Close)
	public := New(nil, nil, nil)
	resp, err := public.client.Get(srv.URL)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("the default client reached %s (%d)", srv.URL, resp.StatusCode)
	}
	if !errors.Is(err, errNotPublic) {
		t.Fatalf("dialling %s: %v, want refused as not public", srv.URL, err)
	}
	inside := New(nil, nil, nil, PrivateNetworks())
	resp, err = inside.client.Get(srv.URL)
	if err != nil {
		t.Fatalf("with PrivateNetworks: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("with PrivateNetworks: %d", resp.StatusCode)
	}
	if !publicAddr(netip.MustParseAddr("8.8.8.8")) || publicAddr(netip.MustParseAddr("::ffff:127.0.0.1")) {
		t.Fatal("publicAddr misjudges 8.8.8.8 or a mapped loopback address")
	}
}
