package ledger

import (
	"encoding/json"
	"testing"
	"time"
)

// TestEntryRecomputes: a public entry carries what its chain hash covers,
// so its hash is recomputed from it (a changed byte of the payload or a
// time written otherwise does not check); a private one carries nothing
// but its hashes.
func TestEntryRecomputes(t *testing.T) {
	prev := ChainHash(nil, Event{ID: 1, At: time.Unix(0, 0), Payload: json.RawMessage(`{}`)})
	e := Event{ID: 2, At: time.Date(2026, 3, 1, 2, 3, 4, 500000000, time.UTC), Actor: "staff:li", Action: "certificate.revoked",
		EntityType: "certificate", EntityID: "110260001", Payload: json.RawMessage(`{"reason":"<假>"}`), PrevHash: prev}
	e.Hash = ChainHash(prev, e)
	pub := EntryOf(e, true)
	if pub.At != "2026-03-01T02:03:04.5Z" || pub.Payload != `{"reason":"<假>"}` {
		t.Fatalf("public entry %+v", pub)
	}
	raw, err := json.Marshal(pub)
	if err != nil {
		t.Fatal(err)
	}
	var back Entry
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if err := back.Check(); err != nil {
		t.Fatalf("a served entry read back: %v", err)
	}
	for name, bad := range map[string]func(*Entry){
		"payload": func(x *Entry) { x.Payload = `{"reason":"<真>"}` },
		"time":    func(x *Entry) { x.At = "2026-03-01T02:03:04.500Z" },
		"actor":   func(x *Entry) { x.Actor = "staff:wang" },
	} {
		x := back
		bad(&x)
		if err := x.Check(); err == nil {
			t.Errorf("a changed %s checked", name)
		}
	}
	priv := EntryOf(e, false)
	if priv.Payload != "" || priv.Actor != "" || priv.Action != "" || priv.EntityID != "" || priv.At != "" || string(priv.Hash) != string(e.Hash) {
		t.Fatalf("private entry %+v", priv)
	}
	if err := priv.Check(); err == nil {
		t.Fatal("a private entry checked")
	}
}
