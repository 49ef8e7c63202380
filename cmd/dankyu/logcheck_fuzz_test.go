package main

import (
	"bytes"
	"testing"

	"github.com/dankyu/dankyu/ledger"
)

// FuzzParseEntries: whatever a server answers, reading its entries ends
// quickly, and what it accepts is a run of chained entries with hashes of
// the tree's size; a public one's content is checked or refused, never
// taken on trust.
func FuzzParseEntries(f *testing.F) {
	f.Add([]byte(`{"entries":[{"id":1,"public":true,"at":"2026-01-02T03:04:05.123Z","actor":"staff:li","action":"certificate.issued","entity_type":"certificate","entity_id":"110260001","payload":"{\"rank\":\"1d\"}","prev_hash":"","hash":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}]}`))
	f.Add([]byte(`{"entries":[{"id":2,"public":false,"prev_hash":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","hash":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}]}`))
	f.Add([]byte(`{"entries":[]}`))
	f.Add([]byte(`{"entries":null}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, body []byte) {
		es, err := parseEntries(body)
		if err != nil {
			return
		}
		if len(es) > ledger.MaxEntries {
			t.Fatalf("%d entries accepted", len(es))
		}
		for i, e := range es {
			if i > 0 && (e.ID != es[i-1].ID+1 || !bytes.Equal(e.PrevHash, es[i-1].Hash)) {
				t.Fatalf("entry %d accepted out of the chain", e.ID)
			}
			if e.Public {
				if err := e.Check(); err == nil {
					ev, _ := e.Event()
					if !bytes.Equal(ledger.ChainHash(e.PrevHash, ev), e.Hash) {
						t.Fatalf("entry %d checked but does not hash to its hash", e.ID)
					}
				}
			} else if _, err := e.Event(); err == nil {
				t.Fatalf("a private entry %d gave an event", e.ID)
			}
		}
	})
}

// FuzzParseAnswer: a verification answer is read in bounded work, and
// each receipt it accepts reads back or is refused.
func FuzzParseAnswer(f *testing.F) {
	f.Add([]byte(`{"number":"110260001","found":true,"verdict":"valid","certificate":{"number":"110260001","holder":"王","player_id":1,"rank":"1d","status":"valid","basis":"tournament","athlete_grade":"","issuer":"110","issue_date":"2026-01-02"},"receipts":[{"event_id":3,"action":"certificate.issued","leaf_index":2,"tree_size":5,"record":"AAAA","root_hash":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","proof":["AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="],"checkpoint":"x"}]}`))
	f.Add([]byte(`{"number":"110260001","found":false,"verdict":"not_found","receipts":[]}`))
	f.Add([]byte(`{"verdict":"under_review","reason_code":"CERTIFICATE_UNDER_REVIEW","receipts":[{"event_id":-1}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		a, err := parseAnswer(body)
		if err != nil {
			return
		}
		for _, r := range a.Receipts {
			if rc, err := r.Receipt(); err == nil && (rc.Index+1 != r.EventID || len(rc.Proof) != len(r.Proof)) {
				t.Fatalf("receipt of event %d read back as leaf %d", r.EventID, rc.Index)
			}
		}
		if a.Certificate != nil {
			_, _ = a.Certificate.Certificate()
		}
	})
}
