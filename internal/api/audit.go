package api

import (
	"context"
	"time"

	"github.com/dankyu/dankyu/audit"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// AuditServer serves dankyu.v1.AuditService.
type AuditServer struct {
	pb.UnimplementedAuditServiceServer
	au *audit.Service
}

// NewAuditServer serves the annual audit au.
func NewAuditServer(au *audit.Service) *AuditServer { return &AuditServer{au: au} }

func familyPB(f audit.Family) pb.AuditFamily {
	return enumOf[pb.AuditFamily](pb.AuditFamily_value, "AUDIT_FAMILY_", string(f))
}

func indicatorPB(in audit.Indicator) *pb.Indicator {
	return &pb.Indicator{Key: in.Key, Family: familyPB(in.Family), Value: in.Value, Count: in.Count, Base: in.Base,
		Median: in.Median, Spread: in.Spread, Mark: enumOf[pb.AuditMark](pb.AuditMark_value, "AUDIT_MARK_", string(in.Mark))}
}

func findingPB(f audit.Finding) *pb.Finding {
	return &pb.Finding{Id: f.ID, AgencyPrefix: f.AgencyPrefix, Year: int32(f.Year), Indicator: f.Indicator, Category: familyPB(f.Category),
		Severity: enumOf[pb.FindingSeverity](pb.FindingSeverity_value, "FINDING_SEVERITY_", string(f.Severity)), Evidence: f.Evidence,
		Status: enumOf[pb.FindingStatus](pb.FindingStatus_value, "FINDING_STATUS_", string(f.Status)), OpenedAt: ts(f.OpenedAt),
		OpenedBy: f.OpenedBy, DecidedAt: tsp(f.DecidedAt), DecidedBy: f.DecidedBy, DecisionNote: f.DecisionNote, Reply: f.Reply,
		RepliedAt: tsp(f.RepliedAt), RepliedBy: f.RepliedBy}
}

func capPB(c *int) *int32 {
	if c == nil {
		return nil
	}
	v := int32(*c)
	return &v
}

func capOf(c *int32) *int {
	if c == nil {
		return nil
	}
	v := int(*c)
	return &v
}

func appealPB(a *audit.Appeal) *pb.Appeal {
	if a == nil {
		return nil
	}
	return &pb.Appeal{AgencyPrefix: a.AgencyPrefix, Year: int32(a.Year), Reason: a.Reason, FiledAt: ts(a.FiledAt), FiledBy: a.FiledBy,
		Status: enumOf[pb.AppealStatus](pb.AppealStatus_value, "APPEAL_STATUS_", string(a.Status)), DecidedAt: tsp(a.DecidedAt),
		DecidedBy: a.DecidedBy, DecisionNote: a.DecisionNote}
}

func (s *AuditServer) rulingPB(r *audit.Ruling) *pb.Ruling {
	if r == nil {
		return nil
	}
	out := &pb.Ruling{AgencyPrefix: r.AgencyPrefix, Year: int32(r.Year),
		Outcome: enumOf[pb.AuditOutcome](pb.AuditOutcome_value, "AUDIT_OUTCOME_", string(r.Outcome)),
		DanCap:  capPB(r.DanCap), KyuCap: capPB(r.KyuCap), Measures: r.Measures, Note: r.Note, RuledAt: ts(r.RuledAt), RuledBy: r.RuledBy,
		StaffApprovesHighDan: r.StaffApprovesHighDan, ReplyUntil: ts(r.ReplyUntil), Final: r.Final(s.au.Now()), Appeal: appealPB(r.Appeal)}
	if r.SupervisionUntil != nil {
		out.SupervisionUntil = r.SupervisionUntil.Format(time.DateOnly)
	}
	return out
}

func (s *AuditServer) auditPB(a audit.Audit) *pb.Audit {
	out := &pb.Audit{AgencyPrefix: a.AgencyPrefix, Year: int32(a.Year), PeriodStart: ts(a.Period.Start), PeriodEnd: ts(a.Period.End),
		Position: a.Position, OpenedAt: ts(a.OpenedAt), OpenedBy: a.OpenedBy, Ruling: s.rulingPB(a.Ruling), Preview: a.Preview}
	for _, in := range a.Indicators {
		out.Indicators = append(out.Indicators, indicatorPB(in))
	}
	for _, f := range a.Findings {
		out.Findings = append(out.Findings, findingPB(f))
	}
	return out
}

func (s *AuditServer) OpenYear(ctx context.Context, req *pb.OpenYearRequest) (*pb.OpenYearResponse, error) {
	o, err := s.au.OpenYear(ctx, ActorFrom(ctx), idempotencyKey(ctx), int(req.GetYear()))
	if err != nil {
		return nil, err
	}
	return &pb.OpenYearResponse{Year: int32(o.Year), Position: o.Position, Agencies: int32(o.Agencies), Red: int32(o.Red)}, nil
}

func (s *AuditServer) GetAudit(ctx context.Context, req *pb.GetAuditRequest) (*pb.GetAuditResponse, error) {
	a, err := s.au.Audit(ctx, ActorFrom(ctx), req.GetAgencyPrefix(), int(req.GetYear()))
	if err != nil {
		return nil, err
	}
	return &pb.GetAuditResponse{Audit: s.auditPB(a)}, nil
}

func (s *AuditServer) ListAudits(ctx context.Context, req *pb.ListAuditsRequest) (*pb.ListAuditsResponse, error) {
	as, err := s.au.ListAudits(ctx, ActorFrom(ctx), int(req.GetYear()))
	if err != nil {
		return nil, err
	}
	out := &pb.ListAuditsResponse{}
	for _, a := range as {
		out.Audits = append(out.Audits, s.auditPB(a))
	}
	return out, nil
}

func (s *AuditServer) GetIndicatorItems(ctx context.Context, req *pb.GetIndicatorItemsRequest) (*pb.GetIndicatorItemsResponse, error) {
	items, err := s.au.IndicatorItems(ctx, ActorFrom(ctx), req.GetAgencyPrefix(), int(req.GetYear()), req.GetKey())
	if err != nil {
		return nil, err
	}
	out := &pb.GetIndicatorItemsResponse{}
	for _, it := range items {
		out.Items = append(out.Items, &pb.IndicatorItem{Kind: it.Kind, Ref: it.Ref, Link: it.Link, EventId: it.EventID, Note: it.Note})
	}
	return out, nil
}

func (s *AuditServer) VerifySnapshot(ctx context.Context, req *pb.VerifySnapshotRequest) (*pb.VerifySnapshotResponse, error) {
	v, err := s.au.VerifyYear(ctx, ActorFrom(ctx), int(req.GetYear()))
	if err != nil {
		return nil, err
	}
	out := &pb.VerifySnapshotResponse{Year: int32(v.Year), Position: v.Position, Indicators: int32(v.Indicators)}
	for _, d := range v.Differences {
		out.Differences = append(out.Differences, &pb.SnapshotDifference{AgencyPrefix: d.AgencyPrefix, Key: d.Key,
			Stored: indicatorPB(d.Stored), Recomputed: indicatorPB(d.Recomputed)})
	}
	return out, nil
}

func (s *AuditServer) AddFinding(ctx context.Context, req *pb.AddFindingRequest) (*pb.AddFindingResponse, error) {
	f, err := s.au.AddFinding(ctx, ActorFrom(ctx), idempotencyKey(ctx), audit.FindingInput{AgencyPrefix: req.GetAgencyPrefix(),
		Year: int(req.GetYear()), Indicator: req.GetIndicator(), Category: audit.Family(domainOf("AUDIT_FAMILY_", req.GetCategory())),
		Severity: audit.Severity(domainOf("FINDING_SEVERITY_", req.GetSeverity())), Evidence: req.GetEvidence()})
	if err != nil {
		return nil, err
	}
	return &pb.AddFindingResponse{Finding: findingPB(f)}, nil
}

func (s *AuditServer) ConfirmFinding(ctx context.Context, req *pb.ConfirmFindingRequest) (*pb.ConfirmFindingResponse, error) {
	f, err := s.au.DecideFinding(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetId(), true, req.GetNote())
	if err != nil {
		return nil, err
	}
	return &pb.ConfirmFindingResponse{Finding: findingPB(f)}, nil
}

func (s *AuditServer) DismissFinding(ctx context.Context, req *pb.DismissFindingRequest) (*pb.DismissFindingResponse, error) {
	f, err := s.au.DecideFinding(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetId(), false, req.GetNote())
	if err != nil {
		return nil, err
	}
	return &pb.DismissFindingResponse{Finding: findingPB(f)}, nil
}

func (s *AuditServer) ReplyToFinding(ctx context.Context, req *pb.ReplyToFindingRequest) (*pb.ReplyToFindingResponse, error) {
	f, err := s.au.ReplyToFinding(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetId(), req.GetReply())
	if err != nil {
		return nil, err
	}
	return &pb.ReplyToFindingResponse{Finding: findingPB(f)}, nil
}

func (s *AuditServer) Rule(ctx context.Context, req *pb.RuleRequest) (*pb.RuleResponse, error) {
	until, err := audit.ParseSupervisionUntil(req.GetSupervisionUntil())
	if err != nil {
		return nil, err
	}
	r, err := s.au.Rule(ctx, ActorFrom(ctx), idempotencyKey(ctx), audit.RulingInput{AgencyPrefix: req.GetAgencyPrefix(), Year: int(req.GetYear()),
		Outcome: audit.Outcome(domainOf("AUDIT_OUTCOME_", req.GetOutcome())), DanCap: capOf(req.DanCap), KyuCap: capOf(req.KyuCap),
		SupervisionUntil: until, Measures: req.GetMeasures(), Note: req.GetNote(), StaffApprovesHighDan: req.GetStaffApprovesHighDan()})
	if err != nil {
		return nil, err
	}
	return &pb.RuleResponse{Ruling: s.rulingPB(&r)}, nil
}

func (s *AuditServer) Bootstrap(ctx context.Context, req *pb.BootstrapRequest) (*pb.BootstrapResponse, error) {
	b, err := s.au.Bootstrap(ctx, ActorFrom(ctx), idempotencyKey(ctx), audit.BootstrapInput{AgencyPrefix: req.GetAgencyPrefix(),
		StockYear: int(req.GetStockYear()), Note: req.GetNote()})
	if err != nil {
		return nil, err
	}
	return &pb.BootstrapResponse{AgencyPrefix: b.AgencyPrefix, StockYear: int32(b.StockYear), Note: b.Note,
		DecidedAt: ts(b.DecidedAt), DecidedBy: b.DecidedBy}, nil
}

func (s *AuditServer) PreviewYear(ctx context.Context, req *pb.PreviewYearRequest) (*pb.PreviewYearResponse, error) {
	p, err := s.au.PreviewYear(ctx, ActorFrom(ctx), idempotencyKey(ctx), int(req.GetYear()))
	if err != nil {
		return nil, err
	}
	return &pb.PreviewYearResponse{Year: int32(p.Year), Position: p.Position, Agencies: int32(p.Agencies), Red: int32(p.Red), PreviewedAt: ts(p.At)}, nil
}

func (s *AuditServer) Appeal(ctx context.Context, req *pb.AppealRequest) (*pb.AppealResponse, error) {
	a, err := s.au.Appeal(ctx, ActorFrom(ctx), idempotencyKey(ctx), audit.AppealInput{AgencyPrefix: req.GetAgencyPrefix(),
		Year: int(req.GetYear()), Reason: req.GetReason()})
	if err != nil {
		return nil, err
	}
	return &pb.AppealResponse{Appeal: appealPB(&a)}, nil
}

func (s *AuditServer) DecideAppeal(ctx context.Context, req *pb.DecideAppealRequest) (*pb.DecideAppealResponse, error) {
	d := audit.AppealDecision{AgencyPrefix: req.GetAgencyPrefix(), Year: int(req.GetYear()), Uphold: req.GetUphold(), Note: req.GetNote()}
	if !d.Uphold {
		c := req.GetChange()
		until, err := audit.ParseSupervisionUntil(c.GetSupervisionUntil())
		if err != nil {
			return nil, err
		}
		d.Ruling = audit.RulingInput{Outcome: audit.Outcome(domainOf("AUDIT_OUTCOME_", c.GetOutcome())), DanCap: capOf(c.DanCap),
			KyuCap: capOf(c.KyuCap), SupervisionUntil: until, Measures: c.GetMeasures(), Note: c.GetNote(), StaffApprovesHighDan: c.GetStaffApprovesHighDan()}
	}
	r, err := s.au.DecideAppeal(ctx, ActorFrom(ctx), idempotencyKey(ctx), d)
	if err != nil {
		return nil, err
	}
	return &pb.DecideAppealResponse{Ruling: s.rulingPB(&r)}, nil
}

func (s *AuditServer) publicationPB(p audit.Publication) *pb.Publication {
	out := &pb.Publication{Year: int32(p.Year), Note: p.Note, Early: p.Early, PublishedAt: ts(p.PublishedAt), PublishedBy: p.PublishedBy}
	for i := range p.Rulings {
		out.Rulings = append(out.Rulings, s.rulingPB(&p.Rulings[i]))
	}
	return out
}

func (s *AuditServer) PublishYear(ctx context.Context, req *pb.PublishYearRequest) (*pb.PublishYearResponse, error) {
	p, err := s.au.PublishYear(ctx, ActorFrom(ctx), idempotencyKey(ctx), audit.PublishInput{Year: int(req.GetYear()), Note: req.GetNote(),
		Early: req.GetEarly()})
	if err != nil {
		return nil, err
	}
	return &pb.PublishYearResponse{Publication: s.publicationPB(p)}, nil
}

// GetPublication is public: the 通报 is read signed out.
func (s *AuditServer) GetPublication(ctx context.Context, req *pb.GetPublicationRequest) (*pb.GetPublicationResponse, error) {
	p, err := s.au.Publication(ctx, int(req.GetYear()))
	if err != nil {
		return nil, err
	}
	return &pb.GetPublicationResponse{Publication: s.publicationPB(p)}, nil
}
