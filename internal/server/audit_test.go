package server_test

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// TestAuditGatesTheGrantOverGRPC previews the running 2027 audit year (a
// preview no ruling can use), opens it after its end, reads an inactive
// agency's red mark and its drill-down, answers and decides its finding,
// and shows the ruling as the gate of its 2028 stock: refused with no ruling
// and after a fail; a second ruling refused; the agency's appeal changes the
// fail into a conditional pass, whose cap is enforced; then the year is
// published once every ruling is final, and read signed out.
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

	// the agencies were created on the last day of audit year 2026: audit year 2027 is their first whole one
	e.clock.Set(time.Date(2027, 6, 1, 2, 0, 0, 0, time.UTC))
	_, err = e.audits.OpenYear(staff, &pb.OpenYearRequest{Year: 2027})
	code(t, "opening a running year", err, codes.FailedPrecondition, "runs until 2027-11-30")
	if reasonOf(err) != "AUDIT_YEAR_RUNNING" {
		t.Fatalf("reason %q", reasonOf(err))
	}
	pv, err := e.audits.PreviewYear(e.as(e.staff, "idempotency-key", "preview-2027"), &pb.PreviewYearRequest{Year: 2027})
	if err != nil || pv.GetAgencies() != 3 || pv.GetPreviewedAt() == nil {
		t.Fatalf("preview: %v %v", pv, err)
	}
	prev, err := e.audits.GetAudit(hn, &pb.GetAuditRequest{AgencyPrefix: "440", Year: 2027})
	if err != nil || !prev.GetAudit().GetPreview() || len(prev.GetAudit().GetFindings()) != 0 {
		t.Fatalf("the preview over gRPC: %v %v", prev, err)
	}
	_, err = e.audits.Rule(staff, &pb.RuleRequest{AgencyPrefix: "440", Year: 2027, Outcome: pb.AuditOutcome_AUDIT_OUTCOME_FAIL})
	code(t, "ruling on a preview", err, codes.FailedPrecondition, "only a preview")
	if reasonOf(err) != "AUDIT_PREVIEW_ONLY" {
		t.Fatalf("reason %q", reasonOf(err))
	}

	e.clock.Set(time.Date(2027, 12, 1, 2, 0, 0, 0, time.UTC))
	_, err = e.audits.OpenYear(e.as(e.bj), &pb.OpenYearRequest{Year: 2027})
	code(t, "an agency opening the audits", err, codes.PermissionDenied, "staff")
	opened, err := e.audits.OpenYear(e.as(e.staff, "idempotency-key", "open-2027"), &pb.OpenYearRequest{Year: 2027})
	if err != nil || opened.GetAgencies() != 3 || opened.GetPosition() == 0 || opened.GetRed() == 0 {
		t.Fatalf("open: %v %v", opened, err)
	}
	again, err := e.audits.OpenYear(e.as(e.staff, "idempotency-key", "open-2027"), &pb.OpenYearRequest{Year: 2027})
	if err != nil || again.GetPosition() != opened.GetPosition() {
		t.Fatalf("open retried with its key: %v %v", again, err)
	}
	_, err = e.audits.OpenYear(staff, &pb.OpenYearRequest{Year: 2027})
	code(t, "open twice", err, codes.Aborted, "2027")

	got, err := e.audits.GetAudit(hn, &pb.GetAuditRequest{AgencyPrefix: "440", Year: 2027})
	if err != nil || got.GetAudit().GetPreview() {
		t.Fatalf("the opened audit: %v %v", got, err)
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
	_, err = e.audits.GetAudit(hn, &pb.GetAuditRequest{AgencyPrefix: "110", Year: 2027})
	code(t, "another agency's audit", err, codes.PermissionDenied, "440")
	items, err := e.audits.GetIndicatorItems(staff, &pb.GetIndicatorItemsRequest{AgencyPrefix: "440", Year: 2027, Key: "inactive_months"})
	if err != nil || len(items.GetItems()) != 12 || items.GetItems()[0].GetRef() != "2026-12" {
		t.Fatalf("drill-down: %v %v", items, err)
	}
	v, err := e.audits.VerifySnapshot(staff, &pb.VerifySnapshotRequest{Year: 2027})
	if err != nil || len(v.GetDifferences()) != 0 || v.GetIndicators() == 0 {
		t.Fatalf("verify: %v %v", v, err)
	}

	e.clock.Set(time.Date(2027, 12, 2, 2, 0, 0, 0, time.UTC))
	if _, err := e.certs.PlaceOrder(hn, &pb.PlaceOrderRequest{DanCount: 20, KyuCount: 20}); err != nil {
		t.Fatal(err)
	}
	grant := func(dan int32) error {
		_, err := e.certs.DecideOrder(staff, &pb.DecideOrderRequest{AgencyPrefix: "440", Year: 2028, Grant: true, DanCount: dan})
		return err
	}
	err = grant(0)
	code(t, "grant without a ruling", err, codes.FailedPrecondition, "agency 440 has not passed its 2027 audit")
	if reasonOf(err) != "AUDIT_NOT_PASSED" {
		t.Fatalf("reason %q", reasonOf(err))
	}

	rule := func(req *pb.RuleRequest) (*pb.Ruling, error) {
		req.AgencyPrefix, req.Year = "440", 2027
		r, err := e.audits.Rule(staff, req)
		return r.GetRuling(), err
	}
	_, err = rule(&pb.RuleRequest{Outcome: pb.AuditOutcome_AUDIT_OUTCOME_PASS})
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
	r, err := rule(&pb.RuleRequest{Outcome: pb.AuditOutcome_AUDIT_OUTCOME_FAIL, Note: "全年无任何活动"})
	if err != nil || r.GetFinal() || r.GetReplyUntil() == nil {
		t.Fatalf("fail: %v %v", r, err)
	}
	code(t, "grant after a fail", grant(0), codes.FailedPrecondition, "has not passed its 2027 audit")
	_, err = rule(&pb.RuleRequest{Outcome: pb.AuditOutcome_AUDIT_OUTCOME_PASS})
	code(t, "a second ruling", err, codes.Aborted, "changes only by the decision of an appeal")

	// the appeal (复议): the agency's, within the reply period; staff decide
	_, err = e.audits.Appeal(e.as(e.bj), &pb.AppealRequest{AgencyPrefix: "440", Year: 2027, Reason: "x"})
	code(t, "another agency appealing", err, codes.PermissionDenied, "440")
	_, err = e.audits.Appeal(hn, &pb.AppealRequest{AgencyPrefix: "440", Year: 2027})
	code(t, "an appeal without a reason", err, codes.InvalidArgument, "reason")
	ap, err := e.audits.Appeal(e.as(hnToken, "idempotency-key", "appeal-440"), &pb.AppealRequest{AgencyPrefix: "440", Year: 2027, Reason: "机构已恢复工作，请求有条件通过"})
	if err != nil || ap.GetAppeal().GetStatus() != pb.AppealStatus_APPEAL_STATUS_PENDING {
		t.Fatalf("appeal: %v %v", ap, err)
	}
	_, err = e.audits.DecideAppeal(hn, &pb.DecideAppealRequest{AgencyPrefix: "440", Year: 2027, Uphold: true, Note: "x"})
	code(t, "the agency deciding", err, codes.PermissionDenied, "staff")
	dcap := int32(10)
	_, err = e.audits.DecideAppeal(staff, &pb.DecideAppealRequest{AgencyPrefix: "440", Year: 2027, Note: "部分采纳",
		Change: &pb.RulingChange{Outcome: pb.AuditOutcome_AUDIT_OUTCOME_CONDITIONAL, DanCap: &dcap, SupervisionUntil: "2028-11-31"}})
	code(t, "a changed ruling with a bad date", err, codes.InvalidArgument, "date")
	dec, err := e.audits.DecideAppeal(e.as(e.staff, "idempotency-key", "decide-440"), &pb.DecideAppealRequest{AgencyPrefix: "440", Year: 2027,
		Note: "部分采纳", Change: &pb.RulingChange{Outcome: pb.AuditOutcome_AUDIT_OUTCOME_CONDITIONAL, DanCap: &dcap, SupervisionUntil: "2028-11-30",
			Measures: "监管期内 4–5 段须经协会审批"}})
	if err != nil || !dec.GetRuling().GetFinal() || dec.GetRuling().GetAppeal().GetStatus() != pb.AppealStatus_APPEAL_STATUS_CHANGED ||
		dec.GetRuling().GetOutcome() != pb.AuditOutcome_AUDIT_OUTCOME_CONDITIONAL {
		t.Fatalf("appeal decided: %v %v", dec, err)
	}
	err = grant(0)
	code(t, "grant above the cap", err, codes.FailedPrecondition, "capped at 10 dan")
	if reasonOf(err) != "AUDIT_STOCK_CAP" {
		t.Fatalf("reason %q", reasonOf(err))
	}
	if err := grant(10); err != nil {
		t.Fatalf("grant at the cap: %v", err)
	}

	// the publication (通报): every agency ruled, every ruling final
	for _, a := range []string{"110", "310"} {
		if _, err := e.audits.Rule(staff, &pb.RuleRequest{AgencyPrefix: a, Year: 2027, Outcome: pb.AuditOutcome_AUDIT_OUTCOME_FAIL}); err != nil {
			t.Fatal(err)
		}
	}
	_, err = e.audits.PublishYear(staff, &pb.PublishYearRequest{Year: 2027})
	code(t, "publishing in the reply period", err, codes.FailedPrecondition, "not final")
	_, err = e.audits.GetPublication(e.as(""), &pb.GetPublicationRequest{})
	code(t, "nothing published", err, codes.NotFound, "not been published")
	e.clock.Set(time.Date(2028, 1, 5, 2, 0, 0, 0, time.UTC))
	_, err = e.audits.Appeal(e.as(e.bj), &pb.AppealRequest{AgencyPrefix: "110", Year: 2027, Reason: "迟到的复议"})
	code(t, "an appeal after the reply period", err, codes.FailedPrecondition, "final")
	_, err = e.audits.PublishYear(hn, &pb.PublishYearRequest{Year: 2027})
	code(t, "an agency publishing", err, codes.PermissionDenied, "staff")
	pub, err := e.audits.PublishYear(e.as(e.staff, "idempotency-key", "publish-2027"), &pb.PublishYearRequest{Year: 2027, Note: "2027 年度年审通报"})
	if err != nil || len(pub.GetPublication().GetRulings()) != 3 {
		t.Fatalf("publish: %v %v", pub, err)
	}
	read, err := e.audits.GetPublication(e.as(""), &pb.GetPublicationRequest{Year: 2027})
	if err != nil {
		t.Fatalf("the publication signed out: %v", err)
	}
	for _, r := range read.GetPublication().GetRulings() {
		want := pb.AuditOutcome_AUDIT_OUTCOME_FAIL
		if r.GetAgencyPrefix() == "440" {
			want = pb.AuditOutcome_AUDIT_OUTCOME_CONDITIONAL
		}
		if r.GetOutcome() != want || !r.GetFinal() {
			t.Errorf("published %s: %v (final %v), want %v", r.GetAgencyPrefix(), r.GetOutcome(), r.GetFinal(), want)
		}
	}

	// the first-year decision over gRPC
	_, err = e.audits.Bootstrap(hn, &pb.BootstrapRequest{AgencyPrefix: "440", StockYear: 2029, Note: "x"})
	code(t, "an agency bootstrapping itself", err, codes.PermissionDenied, "staff")
	b, err := e.audits.Bootstrap(e.as(e.staff, "idempotency-key", "boot-440"), &pb.BootstrapRequest{AgencyPrefix: "440", StockYear: 2029, Note: "新机构首年"})
	if err != nil || b.GetDecidedBy() != "staff:li" {
		t.Fatalf("bootstrap: %v %v", b, err)
	}
}
