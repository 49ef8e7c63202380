package server_test

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dankyu/dankyu/internal/fixture"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// code asserts a gRPC status code and that the message mentions want.
func code(t *testing.T, what string, err error, c codes.Code, want string) {
	t.Helper()
	if status.Code(err) != c || !strings.Contains(status.Convert(err).Message(), want) {
		t.Fatalf("%s: %v; want %s mentioning %q", what, err, c, want)
	}
}

// TestCertificatesOverGRPC runs the 4-dan story and the certificate errors
// through a real gRPC connection.
func TestCertificatesOverGRPC(t *testing.T) {
	e := newEnv(t)
	bj, staff := e.as(e.bj), e.as(e.staff)

	// ordering: refused on 30 November with the opening date, taken on 1 December
	_, err := e.certs.PlaceOrder(bj, &pb.PlaceOrderRequest{DanCount: 5, KyuCount: 5})
	code(t, "order on 30 November", err, codes.FailedPrecondition, "opens on 2026-12-01")
	e.clock.Set(time.Date(2026, 11, 30, 16, 0, 0, 0, time.UTC))
	o, err := e.certs.PlaceOrder(e.as(e.bj, "idempotency-key", "order-1"), &pb.PlaceOrderRequest{DanCount: 5, KyuCount: 5})
	if err != nil || o.GetOrder().GetYear() != 2027 || o.GetOrder().GetStatus() != pb.OrderStatus_ORDER_STATUS_REQUESTED {
		t.Fatalf("order on 1 December: %v %v", o, err)
	}
	_, err = e.certs.DecideOrder(bj, &pb.DecideOrderRequest{AgencyPrefix: "110", Year: 2027, Grant: true})
	code(t, "agency granting", err, codes.PermissionDenied, "staff")
	if _, err := e.certs.DecideOrder(staff, &pb.DecideOrderRequest{AgencyPrefix: "110", Year: 2027, Grant: true}); err != nil {
		t.Fatal(err)
	}
	e.clock.Set(time.Date(2027, 4, 1, 2, 0, 0, 0, time.UTC))

	pl, err := e.client.RegisterPlayer(bj, &pb.RegisterPlayerRequest{Player: wang()})
	if err != nil {
		t.Fatal(err)
	}
	id := pl.GetPlayer().GetId()
	_, err = e.certs.SubmitApplication(bj, &pb.SubmitApplicationRequest{PlayerId: id, TargetRank: "5d", Basis: pb.Basis_BASIS_TOURNAMENT})
	code(t, "application without an event", err, codes.InvalidArgument, "event_id")
	_, err = e.certs.SubmitApplication(bj, &pb.SubmitApplicationRequest{PlayerId: id, TargetRank: "6d", Basis: pb.Basis_BASIS_NATIONAL_RESULT, EventId: 1})
	code(t, "agency applying for 6 dan", err, codes.PermissionDenied, "6 and 7 dan")
	app, err := e.certs.SubmitApplication(bj, &pb.SubmitApplicationRequest{PlayerId: id, TargetRank: "5d", Basis: pb.Basis_BASIS_TOURNAMENT,
		EventId: fixture.Earned(t, e.ts, "5d", id)})
	if err != nil {
		t.Fatal(err)
	}
	approve := e.as(e.bj, "idempotency-key", "approve-1")
	a1, err := e.certs.ApproveApplication(approve, &pb.ApproveApplicationRequest{Id: app.GetApplication().GetId()})
	if err != nil {
		t.Fatal(err)
	}
	a2, err := e.certs.ApproveApplication(approve, &pb.ApproveApplicationRequest{Id: app.GetApplication().GetId()})
	if err != nil || a2.GetApplication().GetNoticeId() != a1.GetApplication().GetNoticeId() {
		t.Fatalf("retried approval: %v %v", a2, err)
	}
	notice := a1.GetApplication().GetNoticeId()
	if a1.GetApplication().GetStatus() != pb.ApplicationStatus_APPLICATION_STATUS_ON_NOTICE || notice == 0 {
		t.Fatalf("approved 5d: %v", a1)
	}
	ns, err := e.notices.ListNotices(context.Background(), &pb.ListNoticesRequest{State: "current", Rank: "5d"})
	if err != nil || len(ns.GetNotices()) != 1 || ns.GetNotices()[0].GetPlayerName() != "王小明" || ns.GetNotices()[0].GetAgencyName() != "Agency 110" {
		t.Fatalf("current notices: %v %v", ns, err)
	}

	// the public objects without an account; staff see the contact, the public do not get it back
	obj, err := e.notices.LodgeObjection(context.Background(), &pb.LodgeObjectionRequest{NoticeId: notice, Name: "赵", Contact: "139", Reason: "代打"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.notices.ListObjections(bj, &pb.ListObjectionsRequest{NoticeId: notice})
	code(t, "agency reading objections", err, codes.PermissionDenied, "staff")
	obs, err := e.notices.ListObjections(staff, &pb.ListObjectionsRequest{NoticeId: notice, OpenOnly: true})
	if err != nil || len(obs.GetObjections()) != 1 || obs.GetObjections()[0].GetAddress() != "127.0.0.1" {
		t.Fatalf("objections: %v %v", obs, err)
	}
	var repeats []int64
	for i, again := range []string{"again", "and again"} { // distinct: an identical objection (or the same objector's) is folded
		o, err := e.notices.LodgeObjection(context.Background(), &pb.LodgeObjectionRequest{NoticeId: notice, Name: "赵", Contact: strconv.Itoa(137 - i), Reason: again})
		if err != nil {
			t.Fatal(err)
		}
		repeats = append(repeats, o.GetId())
	}
	_, err = e.notices.LodgeObjection(context.Background(), &pb.LodgeObjectionRequest{NoticeId: notice, Name: "赵", Contact: "139", Reason: "4th"})
	code(t, "fourth objection from one address", err, codes.ResourceExhausted, "one address")
	// the repeats are dismissed with one ruling
	_, err = e.notices.RuleObjections(bj, &pb.RuleObjectionsRequest{NoticeId: notice, ObjectionIds: repeats, Ruling: "重复"})
	code(t, "agency ruling in bulk", err, codes.PermissionDenied, "staff")
	bulk, err := e.notices.RuleObjections(staff, &pb.RuleObjectionsRequest{NoticeId: notice, ObjectionIds: repeats, Ruling: "重复"})
	if err != nil || len(bulk.GetDismissedIds()) != 2 || bulk.GetCertificateNumber() != "" {
		t.Fatalf("bulk ruling within the period: %v %v", bulk, err)
	}

	// upheld: the application fails and no number is used
	ruled, err := e.notices.RuleObjection(staff, &pb.RuleObjectionRequest{Id: obj.GetId(), Uphold: true, Ruling: "查实"})
	if err != nil || ruled.GetObjection().GetStatus() != pb.ObjectionStatus_OBJECTION_STATUS_UPHELD {
		t.Fatalf("uphold: %v %v", ruled, err)
	}
	got, _ := e.certs.GetApplication(bj, &pb.GetApplicationRequest{Id: app.GetApplication().GetId()})
	if got.GetApplication().GetStatus() != pb.ApplicationStatus_APPLICATION_STATUS_FAILED || got.GetApplication().GetCertificateNumber() != "" {
		t.Fatalf("after an upheld objection: %v", got)
	}
	q, _ := e.certs.GetQuota(bj, &pb.GetQuotaRequest{Year: 2027})
	if q.GetDanUsed() != 0 || q.GetDanGranted() != 5 {
		t.Fatalf("quota: %v", q)
	}

	// a 1 dan issues at once and verifies
	pl2 := fixture.Player(t, e.reg, "110", "新手", "", "1999-09-09", 5)
	app2, err := e.certs.SubmitApplication(bj, &pb.SubmitApplicationRequest{PlayerId: pl2.ID, TargetRank: "1d", Basis: pb.Basis_BASIS_TOURNAMENT, EventId: fixture.Earned(t, e.ts, "1d", pl2.ID)})
	if err != nil {
		t.Fatal(err)
	}
	issued, err := e.certs.ApproveApplication(bj, &pb.ApproveApplicationRequest{Id: app2.GetApplication().GetId()})
	if err != nil || issued.GetApplication().GetCertificateNumber() != "110270001" {
		t.Fatalf("1 dan: %v %v", issued, err)
	}
	// the number as people type it: full-width digits, en-dashes, a closing full stop
	for _, typed := range []string{"110-27-0001", "１１０２７０００１", "110–27–0001。"} {
		v, err := e.certs.VerifyCertificate(context.Background(), &pb.VerifyCertificateRequest{Number: typed})
		c := v.GetCertificate()
		if err != nil || !v.GetFound() || v.GetVerdict() != pb.Verdict_VERDICT_VALID || c.GetPlayerName() != "新手" || c.GetIssueDate() != "2027-04-01" ||
			c.GetStatus() != pb.CertificateStatus_CERTIFICATE_STATUS_VALID || c.GetIssuer() != "中国围棋协会" || c.GetIssuingBody() != "Agency 110" {
			t.Fatalf("verify %q: %v %v; want valid, issued by the association, applied for by Agency 110", typed, v, err)
		}
	}
	v, err := e.certs.VerifyCertificate(context.Background(), &pb.VerifyCertificateRequest{Number: "110270002"})
	if err != nil || v.GetFound() || v.GetVerdict() != pb.Verdict_VERDICT_NOT_FOUND || v.GetNumber() != "110270002" {
		t.Fatalf("unknown number: %v %v; want the verdict not found", v, err)
	}
	_, err = e.certs.VerifyCertificate(context.Background(), &pb.VerifyCertificateRequest{Number: "1102700"})
	code(t, "malformed number", err, codes.InvalidArgument, "9 digits")
	_, err = e.certs.RevokeCertificate(bj, &pb.RevokeCertificateRequest{Number: "110270001", Reason: "x"})
	code(t, "agency revoking", err, codes.PermissionDenied, "staff")
	roster, err := e.certs.ExportRoster(bj, &pb.ExportRosterRequest{})
	if err != nil || roster.GetRows() != 1 || !strings.HasPrefix(string(roster.GetCsv()), "\ufeff") {
		t.Fatalf("roster: %v %v", roster, err)
	}
	if x, err := e.certs.ExportRoster(bj, &pb.ExportRosterRequest{Format: "xlsx"}); err != nil || x.GetRows() != 1 || !bytes.HasPrefix(x.GetCsv(), []byte("PK")) {
		t.Fatalf("roster workbook: %v", err)
	}
	sub, err := e.certs.SubmitRoster(e.as(e.bj, "idempotency-key", "roster-1"), &pb.SubmitRosterRequest{})
	if err != nil || sub.GetSubmission().GetRows() != 1 || !sub.GetSubmission().GetFirst() {
		t.Fatalf("submit roster: %v %v", sub, err)
	}
	subs, err := e.certs.ListRosterSubmissions(staff, &pb.ListRosterSubmissionsRequest{Year: 2027})
	if err != nil || len(subs.GetSubmissions()) != 1 || subs.GetSubmissions()[0].GetAgencyPrefix() != "110" ||
		!subs.GetSubmissions()[0].GetSubmittedAt().AsTime().Equal(e.clock.Now()) {
		t.Fatalf("staff's roster submissions: %v %v", subs, err)
	}
	_, err = e.certs.ExportRoster(context.Background(), &pb.ExportRosterRequest{AgencyPrefix: "110"})
	code(t, "public roster", err, codes.Unauthenticated, "")
}

// TestSeriesFullOverGRPC: the 10,000th number of a series is RESOURCE_EXHAUSTED.
func TestSeriesFullOverGRPC(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	fixture.Stock(t, e.cs, "110", 2026, 9999, 0)
	if _, err := e.store.DB().Exec(ctx, `INSERT INTO certificate_series VALUES ('110', 26, 'dan', 9999)`); err != nil {
		t.Fatal(err)
	}
	p := fixture.Player(t, e.reg, "110", "第一万", "", "1990-01-01", 1)
	app, err := e.certs.SubmitApplication(e.as(e.bj), &pb.SubmitApplicationRequest{PlayerId: p.ID, TargetRank: "2d", Basis: pb.Basis_BASIS_TOURNAMENT, EventId: fixture.Earned(t, e.ts, "2d", p.ID)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.certs.ApproveApplication(e.as(e.bj), &pb.ApproveApplicationRequest{Id: app.GetApplication().GetId()})
	code(t, "10,000th certificate", err, codes.ResourceExhausted, "is full")
}
