package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// TestLogEntriesWithholdMinors: the public log (/log/entries and
// GetLogEntries) serves an adult's issuance in full, so anyone recomputes
// its record, but a minor holder's as a private entry, hashes alone: his
// name does not leave through the log any more than through /verify.
func TestLogEntriesWithholdMinors(t *testing.T) {
	e := newReplicaEnvWith(t, time.Minute, false)
	issue := func(name, birth string, seq int) string {
		t.Helper()
		p := fixture.Player(t, e.reg, "110", name, "", birth, seq)
		a, err := e.cs.Apply(context.Background(), fixture.Agency("110"), "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d",
			Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1d", p.ID)})
		if err != nil {
			t.Fatal(err)
		}
		if a, err = e.cs.Approve(context.Background(), fixture.Agency("110"), "", a.ID); err != nil || a.CertificateNumber == "" {
			t.Fatalf("approve %s: %v %v", name, a, err)
		}
		return a.CertificateNumber
	}
	minor := issue("林小棋", fmt.Sprintf("%d-06-15", e.year-12), 801)
	adult := issue("林大棋", "1990-05-05", 802)

	head, err := ledger.TreeHead(context.Background(), e.primary)
	if err != nil {
		t.Fatal(err)
	}
	code, body := e.get(t, fmt.Sprintf("/log/entries?start=0&end=%d", head.N))
	if code != http.StatusOK {
		t.Fatalf("/log/entries: %d %s", code, body)
	}
	var page struct {
		Entries []ledger.Entry `json:"entries"`
	}
	if err := json.Unmarshal([]byte(body), &page); err != nil {
		t.Fatal(err)
	}
	issued := map[string]bool{} // number → served in full
	for _, en := range page.Entries {
		if en.Public && en.Action == "certificate.issued" {
			if err := en.Check(); err != nil {
				t.Fatal(err)
			}
			var p certs.CertificateIssuedPayload
			if err := json.Unmarshal([]byte(en.Payload), &p); err != nil {
				t.Fatal(err)
			}
			issued[p.Number] = true
		}
	}
	if !issued[adult] || issued[minor] {
		t.Errorf("issuances served in full: %v; want the adult's %s and not the minor's %s", issued, adult, minor)
	}
	if strings.Contains(body, "林小棋") || !strings.Contains(body, "林大棋") {
		t.Errorf("/log/entries names the minor (or not the adult)")
	}
	g, err := e.certs.GetLogEntries(context.Background(), &pb.GetLogEntriesRequest{Start: 0, End: head.N})
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range g.GetEntries() {
		if strings.Contains(en.GetPayload(), "林小棋") {
			t.Errorf("GetLogEntries names the minor in entry %d", en.GetId())
		}
	}
}
