package server_test

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// TestAuditGatesTheGrantOverGRPC opens the 2026 audits, reads an inactive
// agency's red mark and its drill-down, answers and decides its finding, and
// shows the ruling as the gate of its 2027 stock: refused with no ruling and
// after a fail, refused above a conditional cap, granted after a pass.
func TestAuditGatesTheGrantOverGRPC(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	staff := e.as(e.staff)
	if _, err := e.client.CreateAgency(staff, &pb.CreateAgencyRequest{Prefix: "440", Name: "湖南省围棋协会", Contact: "hn@example.org"}); err != nil {
		t.Fatal(err)
	}
	system := ledger.Actor{Kind: ledger.SystemActor, Name: "test"}
	hnToken, _, err := e.reg.CreateToken(ctx, system, ledger.AgencyActor, "440", "")
	if err != nil {
		t.Fatal(err)
	}
	hn := e.as(hnToken)

	_, err = e.audits.OpenYear(e.as(e.bj), &pb.OpenYearRequest{Year: 2026})
	code(t, "an agency opening the audits", err, codes.PermissionDenied, "staff")
	opened, err := e.audits.OpenYear(e.as(e.staff, "idempotency-key", "open-2026"), &pb.OpenYearRequest{Year: 2026})
	if err != nil || opened.GetAgencies() != 3 || opened.GetPosition() == 0 || opened.GetRed() == 0 {
		t.Fatalf("open: %v %v", opened, err)
	}
	again, err := e.audits.OpenYear(e.as(e.staff, "idempotency-key", "open-2026"), &pb.OpenYearRequest{Year: 2026})
	if err != nil || again.GetPosition() != opened.GetPosition() {
		t.Fatalf("open retried with its key: %v %v", again, err)
	}
	_, err = e.audits.OpenYear(staff, &pb.OpenYearRequest{Year: 2026})
	code(t, "open twice", err, codes.Aborted, "2026")

	got, err := e.audits.GetAudit(hn, &pb.GetAuditRequest{AgencyPrefix: "440", Year: 2026})
	if err != nil {
		t.Fatal(err)
	}
	var inactive *pb.Indicator
	for _, in := range got.GetAudit().GetIndicators() {
		if in.GetKey() == "inactive_months" {
			inactive = in
		}
	}
	if inactive == nil || inactive.GetValue() != 12 || inactive.GetMark() != pb.AuditMark_AUDIT_MARK_RED || inactive.GetFamily() != pb.AuditFamily_AUDIT_FAMILY_INACTIVITY {
		t.Fatalf("inactive months of 440: %v", inactive)
	}
	_, err = e.audits.GetAudit(hn, &pb.GetAuditRequest{AgencyPrefix: "110", Year: 2026})
	code(t, "another agency's audit", err, codes.PermissionDenied, "440")
	items, err := e.audits.GetIndicatorItems(staff, &pb.GetIndicatorItemsRequest{AgencyPrefix: "440", Year: 2026, Key: "inactive_months"})
	if err != nil || len(items.GetItems()) != 12 || items.GetItems()[0].GetRef() != "2025-12" {
		t.Fatalf("drill-down: %v %v", items, err)
	}
	v, err := e.audits.VerifySnapshot(staff, &pb.VerifySnapshotRequest{Year: 2026})
	if err != nil || len(v.GetDifferences()) != 0 || v.GetIndicators() == 0 {
		t.Fatalf("verify: %v %v", v, err)
	}

	e.clock.Set(time.Date(2026, 12, 2, 2, 0, 0, 0, time.UTC))
	if _, err := e.certs.PlaceOrder(hn, &pb.PlaceOrderRequest{DanCount: 20, KyuCount: 20}); err != nil {
		t.Fatal(err)
	}
	grant := func() error {
		_, err := e.certs.DecideOrder(staff, &pb.DecideOrderRequest{AgencyPrefix: "440", Year: 2027, Grant: true})
		return err
	}
	err = grant()
	code(t, "grant without a ruling", err, codes.FailedPrecondition, "agency 440 has not passed its 2026 audit")
	if reasonOf(err) != "AUDIT_NOT_PASSED" {
		t.Fatalf("reason %q", reasonOf(err))
	}

	rule := func(req *pb.RuleRequest) error {
		req.AgencyPrefix, req.Year = "440", 2026
		_, err := e.audits.Rule(staff, req)
		return err
	}
	if err := rule(&pb.RuleRequest{Outcome: pb.AuditOutcome_AUDIT_OUTCOME_FAIL, Note: "全年无任何活动"}); err != nil {
		t.Fatal(err)
	}
	code(t, "grant after a fail", grant(), codes.FailedPrecondition, "has not passed its 2026 audit")

	err = rule(&pb.RuleRequest{Outcome: pb.AuditOutcome_AUDIT_OUTCOME_PASS})
	code(t, "pass with findings open", err, codes.FailedPrecondition, "open")
	for _, f := range got.GetAudit().GetFindings() {
		r, err := e.audits.ReplyToFinding(e.as(hnToken, "idempotency-key", "reply-1"), &pb.ReplyToFindingRequest{Id: f.GetId(), Reply: "本年度机构改组，活动暂停。"})
		if err != nil || r.GetFinding().GetReply() == "" {
			t.Fatalf("reply: %v %v", r, err)
		}
		_, err = e.audits.ConfirmFinding(hn, &pb.ConfirmFindingRequest{Id: f.GetId()})
		code(t, "the agency confirming", err, codes.PermissionDenied, "staff")
		if _, err := e.audits.ConfirmFinding(staff, &pb.ConfirmFindingRequest{Id: f.GetId(), Note: "属实"}); err != nil {
			t.Fatal(err)
		}
		_, err = e.audits.DismissFinding(staff, &pb.DismissFindingRequest{Id: f.GetId()})
		code(t, "deciding twice", err, codes.FailedPrecondition, "already decided")
	}
	dcap := int32(10)
	if err := rule(&pb.RuleRequest{Outcome: pb.AuditOutcome_AUDIT_OUTCOME_CONDITIONAL, DanCap: &dcap, SupervisionUntil: "2027-11-30",
		Measures: "监管期内 4–5 段须经协会审批"}); err != nil {
		t.Fatal(err)
	}
	err = grant()
	code(t, "grant above the cap", err, codes.FailedPrecondition, "capped at 10 dan")
	if reasonOf(err) != "AUDIT_STOCK_CAP" {
		t.Fatalf("reason %q", reasonOf(err))
	}
	if err := rule(&pb.RuleRequest{Outcome: pb.AuditOutcome_AUDIT_OUTCOME_PASS}); err != nil {
		t.Fatal(err)
	}
	if err := grant(); err != nil {
		t.Fatalf("grant after a pass: %v", err)
	}

	// the first-year decision over gRPC
	_, err = e.audits.Bootstrap(hn, &pb.BootstrapRequest{AgencyPrefix: "440", StockYear: 2028, Note: "x"})
	code(t, "an agency bootstrapping itself", err, codes.PermissionDenied, "staff")
	b, err := e.audits.Bootstrap(e.as(e.staff, "idempotency-key", "boot-440"), &pb.BootstrapRequest{AgencyPrefix: "440", StockYear: 2028, Note: "新机构首年"})
	if err != nil || b.GetDecidedBy() != "staff:li" {
		t.Fatalf("bootstrap: %v %v", b, err)
	}
}
