package server_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/sumdb/tlog"

	"github.com/dankyu/dankyu/internal/pgtest"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

var (
	pageReceiptRe = regexp.MustCompile(`data-testid="log-index">(\d+)<.*?data-testid="log-size">(\d+)<.*?data-testid="log-record">([^<]+)<.*?data-testid="log-tree-hash">([^<]+)<`)
	pageProofRe   = regexp.MustCompile(`data-testid="log-proof-hash">([^<]+)<`)
)

// receiptOnPage is the receipt the public verification page of number
// shows, as the LogReceipt message (no checkpoint: the page links to it).
func (e *replicaEnv) receiptOnPage(t *testing.T, number string) *pb.LogReceipt {
	t.Helper()
	code, page := e.get(t, "/verify?lang=en&number="+url.QueryEscape(number))
	m := pageReceiptRe.FindStringSubmatch(strings.ReplaceAll(page, "\n", " "))
	if code != http.StatusOK || m == nil {
		t.Fatalf("verification page of %s shows no receipt: %d\n%s", number, code, page)
	}
	rc := &pb.LogReceipt{}
	rc.LeafIndex, _ = strconv.ParseInt(m[1], 10, 64)
	rc.TreeSize, _ = strconv.ParseInt(m[2], 10, 64)
	rc.Record = unbase64(t, m[3])
	rc.RootHash = unbase64(t, m[4])
	for _, h := range pageProofRe.FindAllStringSubmatch(page, -1) {
		rc.Proof = append(rc.Proof, unbase64(t, h[1]))
	}
	return rc
}

func (e *replicaEnv) get(t *testing.T, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(e.portal.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

func unbase64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(html.UnescapeString(strings.TrimSpace(s)))
	if err != nil {
		t.Fatalf("base64 %q: %v", s, err)
	}
	return b
}

// sameReceipt says how a receipt differs from the page's, "" for not at all.
func sameReceipt(got, page *pb.LogReceipt) string {
	switch {
	case got.GetLeafIndex() != page.GetLeafIndex() || got.GetTreeSize() != page.GetTreeSize():
		return "leaf " + strconv.FormatInt(got.GetLeafIndex(), 10) + " of " + strconv.FormatInt(got.GetTreeSize(), 10) +
			", the page's " + strconv.FormatInt(page.GetLeafIndex(), 10) + " of " + strconv.FormatInt(page.GetTreeSize(), 10)
	case !bytes.Equal(got.GetRecord(), page.GetRecord()):
		return "another record"
	case !bytes.Equal(got.GetRootHash(), page.GetRootHash()):
		return "another root hash"
	case !slices.EqualFunc(got.GetProof(), page.GetProof(), bytes.Equal):
		return "another proof"
	}
	return ""
}

// checkReceipt checks a receipt as its holder would, with the verifier
// key alone, and returns it as the ledger's.
func checkReceipt(t *testing.T, rc *pb.LogReceipt, vkey string) *ledger.Receipt {
	t.Helper()
	out := &ledger.Receipt{Index: rc.GetLeafIndex(), Size: rc.GetTreeSize(), Record: rc.GetRecord(), Checkpoint: []byte(rc.GetCheckpoint())}
	if len(rc.GetRootHash()) != tlog.HashSize {
		t.Fatalf("root hash of %d bytes", len(rc.GetRootHash()))
	}
	out.TreeHash = tlog.Hash(rc.GetRootHash())
	for _, h := range rc.GetProof() {
		if len(h) != tlog.HashSize {
			t.Fatalf("proof hash of %d bytes", len(h))
		}
		out.Proof = append(out.Proof, tlog.Hash(h))
	}
	if err := out.Check(vkey); err != nil {
		t.Fatalf("receipt does not check: %v\n%s", err, rc.GetCheckpoint())
	}
	return out
}

// pauseReplay holds the standby's replay: the pause takes hold at the next
// WAL record replayed, so it writes until it has.
func (e *replicaEnv) pauseReplay(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	if err := pgtest.Superuser(ctx, e.standby, e.db, `SELECT pg_wal_replay_pause()`); err != nil {
		t.Fatal(err)
	}
	var state string
	for range 100 {
		e.issue(t)
		if err := e.router.Pool(0).QueryRow(ctx, `SELECT pg_get_wal_replay_pause_state()`).Scan(&state); err != nil || state == "paused" {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if state != "paused" {
		t.Fatalf("replay pause state %q", state)
	}
}

// TestVerifyReceiptFromReplica: over a real gRPC connection
// VerifyCertificate answers the receipt the public verification page shows
// (both from the one public-reads component), with a replica in rotation
// neither makes a single query on the primary, and the receipt checks with
// the verifier key alone. A replica behind the primary answers a receipt of
// its own smaller tree, signed for that size, which a proof from the
// primary's tree extends.
func TestVerifyReceiptFromReplica(t *testing.T) {
	// a long lag setting keeps a replica whose replay is held in rotation
	e := newReplicaEnv(t, time.Minute)
	ctx := context.Background()
	number := e.issue(t)
	e.untilReplayed(t, number)

	r0, p0 := e.reads()
	e.queries.start()
	v, err := e.certs.VerifyCertificate(ctx, &pb.VerifyCertificateRequest{Number: number})
	if err != nil || !v.GetFound() {
		t.Fatalf("VerifyCertificate(%s) = %v, %v", number, v, err)
	}
	page := e.receiptOnPage(t, number)
	acquires, sql := e.queries.stop()
	if acquires != 0 || len(sql) != 0 {
		t.Fatalf("a public verification on both transports took %d connections of the primary and ran %q on it", acquires, sql)
	}
	// one read each: the page's row, events and receipts come in one statement
	if r, p := e.reads(); r != r0+2 || p != p0 {
		t.Fatalf("reads replica %d→%d, primary %d→%d; want the replica to serve the RPC and the page", r0, r, p0, p)
	}
	rc := v.GetReceipt()
	if rc == nil {
		t.Fatalf("VerifyCertificate(%s) has no receipt: %v", number, v)
	}
	if d := sameReceipt(rc, page); d != "" {
		t.Fatalf("the RPC's receipt differs from the page's: %s\nRPC %v\npage %v", d, rc, page)
	}
	got := checkReceipt(t, rc, e.vkey)
	// the component the page reads through answers the very same, checkpoint too
	_, wants, err := e.pr.VerifyWithReceipts(ctx, number)
	if err != nil || len(wants) != 1 {
		t.Fatalf("the component's receipts %+v, %v", wants, err)
	}
	if want := wants[0]; want == nil ||
		!bytes.Equal(want.Checkpoint, got.Checkpoint) || want.Index != got.Index || want.Size != got.Size || !slices.Equal(want.Proof, got.Proof) {
		t.Fatalf("the component's receipt %+v, %v; the RPC's %+v", wants[0], err, got)
	}
	// it proves the certificate's issuance, not any event
	events, err := ledger.EventsFor(ctx, e.primary, "certificate", number)
	if err != nil || len(events) == 0 || events[0].ID-1 != rc.GetLeafIndex() || events[0].Action != "certificate.issued" ||
		!bytes.Equal(events[0].Hash, rc.GetRecord()) {
		t.Fatalf("receipt of leaf %d; the certificate's events %+v, %v", rc.GetLeafIndex(), events, err)
	}

	// the replica falls behind (its replay held) and stays in rotation
	e.pauseReplay(t)
	e.issue(t)
	e.router.Check(ctx)
	if st := e.router.Status()[0]; !st.InRotation {
		t.Fatalf("replica with replay held a moment: %+v; want it in rotation", st)
	}
	head, err := ledger.TreeHead(ctx, e.primary)
	if err != nil {
		t.Fatal(err)
	}
	e.queries.start()
	v, err = e.certs.VerifyCertificate(ctx, &pb.VerifyCertificateRequest{Number: number})
	acquires, sql = e.queries.stop()
	if err != nil || v.GetReceipt() == nil {
		t.Fatalf("VerifyCertificate(%s) from the lagging replica = %v, %v", number, v, err)
	}
	if acquires != 0 || len(sql) != 0 {
		t.Fatalf("verification from the lagging replica took %d connections of the primary and ran %q on it", acquires, sql)
	}
	behind := checkReceipt(t, v.GetReceipt(), e.vkey)
	if behind.Size >= head.N || behind.Size < rc.GetTreeSize() {
		t.Fatalf("lagging replica's receipt of a tree of %d; the primary's has %d, the first receipt's %d", behind.Size, head.N, rc.GetTreeSize())
	}
	// a holder of that receipt checks the primary's newer tree extends it:
	// the portal asks the replica, which has not that tree, then the primary
	r0, p0 = e.reads()
	code, body := e.get(t, "/log/consistency?old="+strconv.FormatInt(behind.Size, 10)+"&new="+strconv.FormatInt(head.N, 10))
	if code != http.StatusOK {
		t.Fatalf("/log/consistency to the primary's tree: %d %s", code, body)
	}
	var proof tlog.TreeProof
	for _, line := range strings.Fields(body) {
		proof = append(proof, tlog.Hash(unbase64(t, line)))
	}
	if err := tlog.CheckTree(proof, head.N, head.Hash, behind.Size, behind.TreeHash); err != nil {
		t.Fatalf("the primary's tree of %d does not extend the lagging receipt's of %d: %v", head.N, behind.Size, err)
	}
	if r, p := e.reads(); r != r0 || p != p0+1 || !e.router.Status()[0].InRotation {
		t.Fatalf("a proof the replica cannot give: reads replica %d→%d, primary %d→%d, %+v; want the primary to answer it and the replica kept", r0, r, p0, p, e.router.Status()[0])
	}
	if err := pgtest.Superuser(ctx, e.standby, e.db, `SELECT pg_wal_replay_resume()`); err != nil {
		t.Fatal(err)
	}
}

// TestVerificationIsOneStatement: the public verification page and
// VerifyCertificate each read the certificate, its events and every tree
// hash of their receipts in one statement (once the notary has published
// the tree's head), and their receipts check with the verifier key.
func TestVerificationIsOneStatement(t *testing.T) {
	e := newReplicaEnvWith(t, time.Minute, false)
	ctx := context.Background()
	var number string
	for range 5 {
		number = e.issue(t)
	}
	// the first answer on a grown tree also proves it extends the last head
	e.receiptOnPage(t, number)
	e.queries.start()
	page := e.receiptOnPage(t, number)
	_, pageSQL := e.queries.stop()
	e.queries.start()
	v, err := e.certs.VerifyCertificate(ctx, &pb.VerifyCertificateRequest{Number: number})
	_, rpcSQL := e.queries.stop()
	if err != nil || !v.GetFound() || v.GetReceipt() == nil {
		t.Fatalf("VerifyCertificate(%s) = %v, %v", number, v, err)
	}
	if len(pageSQL) != 1 || len(rpcSQL) != 1 {
		t.Fatalf("the page ran %d statements %q, the RPC %d %q; want one each", len(pageSQL), pageSQL, len(rpcSQL), rpcSQL)
	}
	if d := sameReceipt(v.GetReceipt(), page); d != "" {
		t.Fatalf("the RPC's receipt differs from the page's: %s", d)
	}
	checkReceipt(t, v.GetReceipt(), e.vkey)
}
