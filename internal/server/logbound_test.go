package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/migrations"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// serverRolePool connects to the env's database as a fresh role with
// exactly the rights the server's role gets (migrations.GrantServer).
func (e *replicaEnv) serverRolePool(t *testing.T) *pgxpool.Pool {
	t.Helper()
	ctx := context.Background()
	role := fmt.Sprintf("dankyu_srv_%d", time.Now().UnixNano()) // roles are cluster-wide
	admin, err := pgx.Connect(ctx, harness.ConnString("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE ROLE "+role+" LOGIN"); err != nil {
		t.Fatal(err)
	}
	owner := stdlib.OpenDBFromPool(e.primary)
	defer owner.Close()
	if err := migrations.GrantServer(ctx, owner, role); err != nil {
		t.Fatal(err)
	}
	url := strings.Replace(harness.ConnString(e.db), "user=postgres", "user="+role, 1)
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	assertLeastPrivilege(t, pool, role)
	return pool
}

// verdictOnPage is the status the public verification page of number shows.
func (e *replicaEnv) verdictOnPage(t *testing.T, number string) (string, string) {
	t.Helper()
	code, page := e.get(t, "/verify?lang=en&number="+url.QueryEscape(number))
	if code != http.StatusOK {
		t.Fatalf("/verify %s: %d", number, code)
	}
	i := strings.Index(page, `data-testid="verify-result" data-status="`)
	if i < 0 {
		t.Fatalf("no verdict on the page of %s", number)
	}
	rest := page[i+len(`data-testid="verify-result" data-status="`):]
	return rest[:strings.IndexByte(rest, '"')], page
}

// checkedReceipts checks every receipt of an answer with the verifier key
// alone and returns their actions.
func checkedReceipts(t *testing.T, v *pb.VerifyCertificateResponse, vkey string) []string {
	t.Helper()
	var actions []string
	for _, rc := range v.GetReceipts() {
		checkReceipt(t, rc, vkey)
		actions = append(actions, rc.GetAction())
	}
	return actions
}

// TestTamperedCertificateUnderReview: with the server's own role, and as
// the superuser, a certificate's rank or status changed in its row is
// answered as under review by the page and over gRPC (single and batch),
// never as valid, with the receipts of its events still served (issue 31,
// finding 2).
func TestTamperedCertificateUnderReview(t *testing.T) {
	e := newReplicaEnvWith(t, time.Minute, false)
	ctx := context.Background()
	number := e.issue(t)
	if st, _ := e.verdictOnPage(t, number); st != "valid" {
		t.Fatalf("untouched certificate: %s", st)
	}
	srv := e.serverRolePool(t)
	for _, tamper := range []struct {
		who  string
		pool *pgxpool.Pool
		sql  string
	}{
		{"server role", srv, `UPDATE certificates SET rank = 5 WHERE number = $1`},
		{"server role", srv, `UPDATE certificates SET status = 'revoked', status_reason = 'x' WHERE number = $1`},
		{"superuser", e.primary, `UPDATE certificates SET rank = 5 WHERE number = $1`},
		{"superuser", e.primary, `UPDATE certificates SET status = 'reissued' WHERE number = $1`},
	} {
		if _, err := tamper.pool.Exec(ctx, tamper.sql, number); err != nil {
			t.Fatalf("%s: %s: %v", tamper.who, tamper.sql, err)
		}
		st, page := e.verdictOnPage(t, number)
		if st != "under_review" || strings.Contains(page, "Valid certificate") || strings.Contains(page, `data-testid="verify-rank"`) ||
			!strings.Contains(page, `data-reason="CERTIFICATE_UNDER_REVIEW"`) || strings.Count(page, `data-testid="log-receipt"`) != 1 {
			t.Fatalf("%s, %s: the page shows %s\n%s", tamper.who, tamper.sql, st, page)
		}
		v, err := e.certs.VerifyCertificate(ctx, &pb.VerifyCertificateRequest{Number: number})
		if err != nil || v.GetVerdict() != pb.Verdict_VERDICT_UNDER_REVIEW || v.GetCertificate() != nil ||
			v.GetReason() != "CERTIFICATE_UNDER_REVIEW" || v.GetProblem() == "" {
			t.Fatalf("%s, %s: VerifyCertificate = %v, %v", tamper.who, tamper.sql, v, err)
		}
		if a := checkedReceipts(t, v, e.vkey); len(a) != 1 || a[0] != "certificate.issued" {
			t.Fatalf("%s: receipts of %v", tamper.who, a)
		}
		b, err := e.certs.VerifyCertificates(ctx, &pb.VerifyCertificatesRequest{Claims: []*pb.CertificateClaim{{Number: number}}})
		if err != nil || b.GetVerdicts()[0].GetVerdict() != pb.Verdict_VERDICT_UNDER_REVIEW || b.GetVerdicts()[0].GetCertificate() != nil ||
			b.GetVerdicts()[0].GetReason() != "CERTIFICATE_UNDER_REVIEW" {
			t.Fatalf("%s, %s: VerifyCertificates = %v, %v", tamper.who, tamper.sql, b, err)
		}
		if m, err := e.cs.CheckCertificatesAgainstLog(ctx); err != nil || len(m) != 1 || !strings.HasPrefix(m[0], number+": ") {
			t.Fatalf("%s: the whole check found %v, %v", tamper.who, m, err)
		}
		// put the row back as its events say, for the next tampering
		if _, err := e.primary.Exec(ctx, `UPDATE certificates SET rank = 1, status = 'valid', status_reason = '' WHERE number = $1`, number); err != nil {
			t.Fatal(err)
		}
		if st, _ := e.verdictOnPage(t, number); st != "valid" {
			t.Fatalf("restored row: %s", st)
		}
	}
}

// TestEveryEventHasItsReceipt: a revoked and a reissued certificate carry
// a receipt of each event that made them so, on the page and over gRPC,
// every one checking offline; the log's entries serve those events'
// content, whose recomputed leaves are the receipts', and hide what is
// private (issue 31, finding 2).
func TestEveryEventHasItsReceipt(t *testing.T) {
	e := newReplicaEnvWith(t, time.Minute, false)
	ctx := context.Background()
	revoked, old := e.issue(t), e.issue(t)
	if _, err := e.cs.Revoke(ctx, fixture.Staff, "", revoked, "成绩作假"); err != nil {
		t.Fatal(err)
	}
	re, err := e.cs.Reissue(ctx, fixture.Staff, "", old, "遗失")
	if err != nil {
		t.Fatal(err)
	}
	records := map[int64][]byte{} // event id → the record its receipt proves
	for number, want := range map[string]string{
		revoked:   "certificate.issued certificate.revoked",
		old:       "certificate.issued certificate.reissued",
		re.Number: "certificate.issued",
	} {
		v, err := e.certs.VerifyCertificate(ctx, &pb.VerifyCertificateRequest{Number: number})
		if err != nil || v.GetCertificate() == nil {
			t.Fatalf("VerifyCertificate(%s) = %v, %v", number, v, err)
		}
		if got := strings.Join(checkedReceipts(t, v, e.vkey), " "); got != want {
			t.Errorf("%s: receipts of %s, want %s", number, got, want)
		}
		if v.GetReceipt().GetLeafIndex() != v.GetReceipts()[0].GetLeafIndex() {
			t.Errorf("%s: the issuance receipt is not the first of the receipts", number)
		}
		for _, rc := range v.GetReceipts() {
			records[rc.GetLeafIndex()+1] = rc.GetRecord()
		}
		if _, page := e.verdictOnPage(t, number); strings.Count(page, `data-testid="log-receipt"`) != len(v.GetReceipts()) {
			t.Errorf("%s: the page shows %d receipts, the RPC %d", number, strings.Count(page, `data-testid="log-receipt"`), len(v.GetReceipts()))
		}
	}

	head, err := ledger.TreeHead(ctx, e.primary)
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
	if err := json.Unmarshal([]byte(body), &page); err != nil || int64(len(page.Entries)) != head.N {
		t.Fatalf("/log/entries: %d entries of %d, %v", len(page.Entries), head.N, err)
	}
	var public, private int
	var prev []byte
	for i, en := range page.Entries {
		if en.ID != int64(i+1) || string(en.PrevHash) != string(prev) {
			t.Fatalf("entry %d does not follow entry %d", en.ID, i)
		}
		prev = en.Hash
		if !en.Public {
			private++
			if en.Payload != "" || en.Actor != "" || en.EntityID != "" || en.Action != "" {
				t.Fatalf("private entry %d shows content: %+v", en.ID, en)
			}
			continue
		}
		public++
		if err := en.Check(); err != nil {
			t.Fatalf("public entry: %v", err)
		}
		if rec, ok := records[en.ID]; ok {
			if string(rec) != string(en.Hash) {
				t.Fatalf("entry %d hashes to another record than its receipt's", en.ID)
			}
			delete(records, en.ID)
		}
		// its leaf is in the tree: the public inclusion proof checks
		proof := tlog.RecordProof{}
		code, lines := e.get(t, fmt.Sprintf("/log/inclusion?index=%d&size=%d", en.ID-1, head.N))
		for _, l := range strings.Fields(lines) {
			proof = append(proof, tlog.Hash(unbase64(t, l)))
		}
		if code != http.StatusOK || tlog.CheckRecord(proof, head.N, head.Hash, en.ID-1, tlog.RecordHash(en.Hash)) != nil {
			t.Fatalf("entry %d is not in the tree", en.ID)
		}
	}
	if len(records) != 0 || public < 5 || private == 0 {
		t.Fatalf("receipts without a public entry %v; %d public, %d private entries", records, public, private)
	}
	// a private action's payload never leaves: players' registrations hold identities
	for _, private := range []string{"player.registered", "identity", "birth"} {
		if strings.Contains(body, private) {
			t.Errorf("/log/entries shows %q", private)
		}
	}
	g, err := e.certs.GetLogEntries(ctx, &pb.GetLogEntriesRequest{Start: 0, End: head.N})
	if err != nil || len(g.GetEntries()) != len(page.Entries) {
		t.Fatalf("GetLogEntries: %d entries, %v", len(g.GetEntries()), err)
	}
	for i, en := range g.GetEntries() {
		if w := page.Entries[i]; en.GetId() != w.ID || en.GetPayload() != w.Payload || en.GetAt() != w.At || string(en.GetHash()) != string(w.Hash) {
			t.Fatalf("GetLogEntries entry %d differs from /log/entries'", en.GetId())
		}
	}
	for _, bad := range []string{"/log/entries?start=0&end=1001", "/log/entries?start=-1&end=1", "/log/entries?start=5&end=5", "/log/entries?start=x&end=1"} {
		if code, _ := e.get(t, bad); code != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", bad, code)
		}
	}
	if _, err := e.certs.GetLogEntries(ctx, &pb.GetLogEntriesRequest{Start: 0, End: 2000}); err == nil {
		t.Error("GetLogEntries of 2000 entries answered")
	}
	// the JSON answer the CLI reads carries the same receipts
	code, proof := e.get(t, "/verify/proof?number="+revoked)
	var ans certs.PublicAnswer
	if err := json.Unmarshal([]byte(proof), &ans); code != http.StatusOK || err != nil || ans.Verdict != certs.VerdictRevoked || len(ans.Receipts) != 2 ||
		ans.Certificate == nil || ans.Certificate.StatusReason != "成绩作假" {
		t.Fatalf("/verify/proof: %d %+v %v", code, ans, err)
	}
}
