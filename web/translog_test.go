package web_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/web"
)

// newLogPortal is a portal serving the signed event tree with a fresh key.
func newLogPortal(t *testing.T) *portalEnv {
	t.Helper()
	skey, vkey, err := note.GenerateKey(rand.Reader, "dankyu-test")
	if err != nil {
		t.Fatal(err)
	}
	return newPortalEnvWith(t, func(s *ledger.Store) web.Options {
		notary, err := ledger.NewNotary(skey, vkey, ledger.NotaryOptions{Now: s.Now,
			Keep: func(ctx context.Context, c ledger.SignedHead) error { return ledger.KeepCheckpoint(ctx, s.DB(), c) }})
		if err != nil {
			t.Fatal(err)
		}
		return web.Options{Log: keptLog{notary.Signer(s.DB(), true).WithPublicActions(certs.PublicLogActions()...)}}
	})
}

// keptLog is the signed tree with its history, as the server serves it.
type keptLog struct{ *ledger.TreeSigner }

func (k keptLog) CheckpointHistory(ctx context.Context, after int64, limit int) ([]ledger.KeptCheckpoint, error) {
	return k.History(ctx, after, limit)
}

// outsider is what anyone can do with the public endpoints alone.
type outsider struct {
	t    *testing.T
	base string
	vkey string
}

func (o outsider) checkpoint() tlog.Tree {
	o.t.Helper()
	code, body := get(o.t, o.base+"/log/checkpoint")
	if code != 200 {
		o.t.Fatalf("/log/checkpoint: %d %s", code, body)
	}
	v, err := note.NewVerifier(o.vkey)
	if err != nil {
		o.t.Fatal(err)
	}
	n, err := note.Open([]byte(body), note.VerifierList(v))
	if err != nil {
		o.t.Fatalf("checkpoint signature: %v\n%s", err, body)
	}
	c, err := ledger.ParseCheckpoint([]byte(n.Text))
	if err != nil {
		o.t.Fatal(err)
	}
	if c.Origin != ledger.DefaultOrigin || c.Time.IsZero() {
		o.t.Fatalf("checkpoint of origin %q at %v, want this log's name and a time", c.Origin, c.Time)
	}
	return c.Tree
}

func (o outsider) hashes(path string) []tlog.Hash {
	o.t.Helper()
	code, body := get(o.t, o.base+path)
	if code != 200 {
		o.t.Fatalf("%s: %d %s", path, code, body)
	}
	var out []tlog.Hash
	for _, line := range strings.Fields(body) {
		b, err := base64.StdEncoding.DecodeString(line)
		if err != nil || len(b) != tlog.HashSize {
			o.t.Fatalf("%s: bad hash line %q", path, line)
		}
		out = append(out, tlog.Hash(b))
	}
	return out
}

// TestOutsiderChecksConsistency: someone holding two checkpoints checks,
// with the public endpoints and the verifier key only, that the newer tree
// extends the older (issue 12, finding 5).
func TestOutsiderChecksConsistency(t *testing.T) {
	e := newLogPortal(t)
	ctx := context.Background()
	code, vkey := get(t, e.srv.URL+"/log/key")
	if code != 200 {
		t.Fatalf("/log/key: %d", code)
	}
	o := outsider{t: t, base: e.srv.URL, vkey: strings.TrimSpace(vkey)}
	old := o.checkpoint()
	if old.N < 2 {
		t.Fatalf("first checkpoint covers %d events", old.N)
	}
	staff := ledger.Actor{Kind: ledger.StaffActor, Name: "li"}
	for i, prefix := range []string{"310", "440", "510"} {
		if _, err := e.reg.CreateAgency(ctx, staff, "", registry.AgencyInput{Prefix: prefix, Name: fmt.Sprintf("棋院%d", i), Contact: "1"}); err != nil {
			t.Fatal(err)
		}
	}
	cur := o.checkpoint()
	if cur.N <= old.N {
		t.Fatalf("tree did not grow: %d then %d", old.N, cur.N)
	}
	proof := o.hashes(fmt.Sprintf("/log/consistency?old=%d&new=%d", old.N, cur.N))
	if err := tlog.CheckTree(proof, cur.N, cur.Hash, old.N, old.Hash); err != nil {
		t.Fatalf("consistency proof does not check: %v", err)
	}
	// a forged older head does not check against the same proof
	forged := old.Hash
	forged[0] ^= 1
	if err := tlog.CheckTree(proof, cur.N, cur.Hash, old.N, forged); err == nil {
		t.Fatal("a forged checkpoint checked as consistent")
	}
	// and each event is in the tree: inclusion of the last one
	events, err := ledger.EventsFor(ctx, e.store.DB(), "agency", "510")
	if err != nil || len(events) == 0 {
		t.Fatalf("events of agency 510: %v %v", events, err)
	}
	last := events[len(events)-1]
	rp := o.hashes(fmt.Sprintf("/log/inclusion?index=%d&size=%d", last.ID-1, cur.N))
	if err := tlog.CheckRecord(rp, cur.N, cur.Hash, last.ID-1, tlog.RecordHash(last.Hash)); err != nil {
		t.Fatalf("inclusion proof does not check: %v", err)
	}
	for _, bad := range []string{"/log/consistency?old=0&new=1", fmt.Sprintf("/log/consistency?old=1&new=%d", cur.N+1), "/log/inclusion?index=x&size=1"} {
		if code, _ := get(t, e.srv.URL+bad); code != 400 {
			t.Errorf("%s: %d, want 400", bad, code)
		}
	}
}

var (
	receiptRe = regexp.MustCompile(`data-testid="log-index">(\d+)<.*?data-testid="log-size">(\d+)<.*?data-testid="log-record">([^<]+)<`)
	proofRe   = regexp.MustCompile(`data-testid="log-proof-link">([^<]+)<`)
)

// TestVerifyPageProvesIssuance: the verification page shows where the
// certificate's issuance event is in the tree, and its proof, fetched from
// the linked endpoint, checks against the signed checkpoint.
func TestVerifyPageProvesIssuance(t *testing.T) {
	e := newLogPortal(t)
	e.stockThisYear(t)
	ctx := context.Background()
	p := fixture.Player(t, e.reg, "110", "周九", "", "1990-03-03", 9)
	a, _ := e.cs.Apply(ctx, fixture.Agency("110"), "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1d", p.ID)})
	a, err := e.cs.Approve(ctx, fixture.Agency("110"), "", a.ID)
	if err != nil || a.CertificateNumber == "" {
		t.Fatalf("approve: %v %+v", err, a)
	}
	code, page := get(t, e.srv.URL+"/verify?number="+a.CertificateNumber)
	m := receiptRe.FindStringSubmatch(strings.ReplaceAll(page, "\n", " "))
	if code != 200 || m == nil {
		t.Fatalf("verification page shows no inclusion proof: %d\n%s", code, page)
	}
	index, _ := strconv.ParseInt(m[1], 10, 64)
	size, _ := strconv.ParseInt(m[2], 10, 64)
	record, err := base64.StdEncoding.DecodeString(m[3])
	if err != nil {
		t.Fatal(err)
	}
	link := proofRe.FindStringSubmatch(page)
	if link == nil {
		t.Fatal("no link to the proof")
	}
	_, vkey := get(t, e.srv.URL+"/log/key")
	o := outsider{t: t, base: e.srv.URL, vkey: strings.TrimSpace(vkey)}
	tree := o.checkpoint()
	if tree.N != size {
		t.Fatalf("page's tree of %d, checkpoint's of %d", size, tree.N)
	}
	proof := o.hashes(html.UnescapeString(link[1]))
	if err := tlog.CheckRecord(proof, tree.N, tree.Hash, index, tlog.RecordHash(record)); err != nil {
		t.Fatalf("inclusion proof of the issuance does not check: %v", err)
	}
	// the record is the issuance event's, not any event's
	events, err := ledger.EventsFor(ctx, e.store.DB(), "certificate", a.CertificateNumber)
	if err != nil || len(events) == 0 || events[0].ID-1 != index || events[0].Action != "certificate.issued" {
		t.Fatalf("receipt index %d, events %+v, %v", index, events, err)
	}
}

// TestCheckpointHistoryIsPublic: each checkpoint served is kept and
// listed at /log/checkpoints, in pages, each one opening with the key.
func TestCheckpointHistoryIsPublic(t *testing.T) {
	e := newLogPortal(t)
	ctx := context.Background()
	_, vkey := get(t, e.srv.URL+"/log/key")
	o := outsider{t: t, base: e.srv.URL, vkey: strings.TrimSpace(vkey)}
	staff := ledger.Actor{Kind: ledger.StaffActor, Name: "li"}
	var sizes []int64
	for i, prefix := range []string{"310", "440", "510"} {
		sizes = append(sizes, o.checkpoint().N)
		o.checkpoint() // the same tree again: no new checkpoint
		if _, err := e.reg.CreateAgency(ctx, staff, "", registry.AgencyInput{Prefix: prefix, Name: fmt.Sprintf("棋院%d", i), Contact: "1"}); err != nil {
			t.Fatal(err)
		}
	}
	type page struct {
		Checkpoints []ledger.KeptCheckpoint `json:"checkpoints"`
		Next        int64                   `json:"next"`
	}
	read := func(q string) page {
		t.Helper()
		code, body := get(t, e.srv.URL+"/log/checkpoints"+q)
		var p page
		if code != 200 || json.Unmarshal([]byte(body), &p) != nil {
			t.Fatalf("/log/checkpoints%s: %d %s", q, code, body)
		}
		return p
	}
	first := read("?limit=2")
	if len(first.Checkpoints) != 2 || first.Next == 0 {
		t.Fatalf("first page %+v", first)
	}
	rest := read(fmt.Sprintf("?after=%d", first.Next))
	all := append(first.Checkpoints, rest.Checkpoints...)
	if len(all) != len(sizes) || rest.Next != 0 {
		t.Fatalf("history of %d checkpoints (next %d), want %d", len(all), rest.Next, len(sizes))
	}
	for i, k := range all {
		c, err := ledger.OpenSignedCheckpoint([]byte(k.Note), o.vkey)
		if err != nil || c.Tree.N != sizes[i] || k.Size != sizes[i] {
			t.Fatalf("history %d: %+v %v (want size %d)", i, k, err, sizes[i])
		}
	}
	for _, bad := range []string{"?after=-1", "?after=x", "?limit=0", "?limit=100000"} {
		if code, _ := get(t, e.srv.URL+"/log/checkpoints"+bad); code != 400 {
			t.Errorf("/log/checkpoints%s: %d, want 400", bad, code)
		}
	}
}
