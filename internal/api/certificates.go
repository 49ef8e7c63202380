package api

import (
	"bytes"
	"context"
	"net"
	"slices"
	"strings"
	"time"

	"google.golang.org/grpc/peer"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/registry"
)

// enumOf maps a domain value such as "on_notice" to the protobuf enum whose
// name is the prefix plus the value in upper case (APPLICATION_STATUS_ON_NOTICE).
func enumOf[E ~int32](values map[string]int32, prefix, v string) E {
	return E(values[prefix+strings.ToUpper(v)])
}

// domainOf maps a protobuf enum back to its domain value, "" for unspecified.
func domainOf[E interface {
	~int32
	String() string
}](prefix string, e E) string {
	if e == 0 {
		return ""
	}
	return strings.ToLower(strings.TrimPrefix(e.String(), prefix))
}

func ts(t time.Time) *timestamppb.Timestamp { return timestamppb.New(t) }

func tsp(t *time.Time) *timestamppb.Timestamp {
	if t == nil {
		return nil
	}
	return timestamppb.New(*t)
}

func basisPB(b certs.Basis) pb.Basis { return enumOf[pb.Basis](pb.Basis_value, "BASIS_", string(b)) }

func rankOrEmpty(s string) (registry.Rank, error) {
	r, err := registry.ParseRank(s)
	if err != nil {
		return 0, registry.ReasonRank.OnField("rank", "value", s)
	}
	return r, nil
}

// CertificateServer serves dankyu.v1.CertificateService.
type CertificateServer struct {
	pb.UnimplementedCertificateServiceServer
	cs    *certs.Service
	reads CertificateReads
}

// NewCertificateServer serves the certificates of cs, the public's reads from reads.
func NewCertificateServer(cs *certs.Service, reads CertificateReads) *CertificateServer {
	return &CertificateServer{cs: cs, reads: reads}
}

func orderPB(o certs.Order) *pb.Order {
	return &pb.Order{AgencyPrefix: o.AgencyPrefix, Year: int32(o.Year), DanCount: int32(o.DanCount), KyuCount: int32(o.KyuCount),
		Status: enumOf[pb.OrderStatus](pb.OrderStatus_value, "ORDER_STATUS_", string(o.Status)), OrderedAt: ts(o.OrderedAt),
		OrderedBy: o.OrderedBy, DecidedAt: tsp(o.DecidedAt), DecidedBy: o.DecidedBy, Note: o.Note}
}

func (s *CertificateServer) PlaceOrder(ctx context.Context, req *pb.PlaceOrderRequest) (*pb.PlaceOrderResponse, error) {
	o, err := s.cs.PlaceOrder(ctx, ActorFrom(ctx), idempotencyKey(ctx), certs.OrderInput{AgencyPrefix: req.GetAgencyPrefix(),
		Year: int(req.GetYear()), DanCount: int(req.GetDanCount()), KyuCount: int(req.GetKyuCount())})
	if err != nil {
		return nil, err
	}
	return &pb.PlaceOrderResponse{Order: orderPB(o)}, nil
}

func (s *CertificateServer) DecideOrder(ctx context.Context, req *pb.DecideOrderRequest) (*pb.DecideOrderResponse, error) {
	o, err := s.cs.DecideOrder(ctx, ActorFrom(ctx), idempotencyKey(ctx), certs.OrderDecision{AgencyPrefix: req.GetAgencyPrefix(),
		Year: int(req.GetYear()), Grant: req.GetGrant(), DanCount: int(req.GetDanCount()), KyuCount: int(req.GetKyuCount()), Note: req.GetNote()})
	if err != nil {
		return nil, err
	}
	return &pb.DecideOrderResponse{Order: orderPB(o)}, nil
}

func (s *CertificateServer) ListOrders(ctx context.Context, req *pb.ListOrdersRequest) (*pb.ListOrdersResponse, error) {
	os, err := s.cs.ListOrders(ctx, ActorFrom(ctx), req.GetAgencyPrefix())
	if err != nil {
		return nil, err
	}
	resp := &pb.ListOrdersResponse{}
	for _, o := range os {
		resp.Orders = append(resp.Orders, orderPB(o))
	}
	return resp, nil
}

func (s *CertificateServer) GetQuota(ctx context.Context, req *pb.GetQuotaRequest) (*pb.GetQuotaResponse, error) {
	actor := ActorFrom(ctx)
	agency := req.GetAgencyPrefix()
	if agency == "" && actor.Kind == ledger.AgencyActor {
		agency = actor.Agency
	}
	q, err := s.cs.QuotaOf(ctx, actor, agency, int(req.GetYear()))
	if err != nil {
		return nil, err
	}
	return &pb.GetQuotaResponse{Year: int32(q.Year), DanGranted: int32(q.DanGranted), DanUsed: int32(q.DanUsed),
		KyuGranted: int32(q.KyuGranted), KyuUsed: int32(q.KyuUsed)}, nil
}

func appraiserPB(a certs.Appraiser) *pb.Appraiser {
	return &pb.Appraiser{Id: a.ID, Name: a.Name, AgencyPrefix: a.AgencyPrefix, PlayerId: a.PlayerID, Qualification: a.Qualification,
		Status:        enumOf[pb.AppraiserStatus](pb.AppraiserStatus_value, "APPRAISER_STATUS_", string(a.Status)),
		RecommendedAt: ts(a.RecommendedAt), DecidedAt: tsp(a.DecidedAt)}
}

func (s *CertificateServer) RecommendAppraiser(ctx context.Context, req *pb.RecommendAppraiserRequest) (*pb.RecommendAppraiserResponse, error) {
	a, err := s.cs.RecommendAppraiser(ctx, ActorFrom(ctx), idempotencyKey(ctx), certs.AppraiserInput{Name: req.GetName(),
		AgencyPrefix: req.GetAgencyPrefix(), PlayerID: req.GetPlayerId(), Qualification: req.GetQualification()})
	if err != nil {
		return nil, err
	}
	return &pb.RecommendAppraiserResponse{Appraiser: appraiserPB(a)}, nil
}

func (s *CertificateServer) SetAppraiserStatus(ctx context.Context, req *pb.SetAppraiserStatusRequest) (*pb.SetAppraiserStatusResponse, error) {
	st := certs.AppraiserStatus(domainOf("APPRAISER_STATUS_", req.GetStatus()))
	a, err := s.cs.SetAppraiserStatus(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetId(), st)
	if err != nil {
		return nil, err
	}
	return &pb.SetAppraiserStatusResponse{Appraiser: appraiserPB(a)}, nil
}

func (s *CertificateServer) ListAppraisers(ctx context.Context, req *pb.ListAppraisersRequest) (*pb.ListAppraisersResponse, error) {
	as, err := s.cs.ListAppraisers(ctx, req.GetAgencyPrefix())
	if err != nil {
		return nil, err
	}
	resp := &pb.ListAppraisersResponse{}
	for _, a := range as {
		resp.Appraisers = append(resp.Appraisers, appraiserPB(a))
	}
	return resp, nil
}

func applicationPB(a certs.Application) *pb.Application {
	return &pb.Application{Id: a.ID, PlayerId: a.PlayerID, PlayerName: a.PlayerName, AgencyPrefix: a.AgencyPrefix,
		TargetRank: a.TargetRank.String(), Basis: basisPB(a.Basis), EventRef: a.EventRef, RecordRef: a.RecordRef,
		Evidence: a.Evidence, AppraiserId: a.AppraiserID,
		Status:    enumOf[pb.ApplicationStatus](pb.ApplicationStatus_value, "APPLICATION_STATUS_", string(a.Status)),
		AppliedAt: ts(a.AppliedAt), AppliedBy: a.AppliedBy, DecidedAt: tsp(a.DecidedAt), DecidedBy: a.DecidedBy,
		Reason: a.Reason, CertificateNumber: a.CertificateNumber, NoticeId: a.NoticeID, AppraisalSessionId: a.AppraisalSessionID,
		EventId: a.EventID, Placing: int32(a.Placing), Wins: int32(a.Wins), Games: int32(a.Games), Group: a.Group, EarnedRank: earnedRank(a)}
}

func earnedRank(a certs.Application) string {
	if a.EventID == 0 || a.EarnedRank == registry.NoRank {
		return ""
	}
	return a.EarnedRank.String()
}

func nationalEventPB(n certs.NationalEvent) *pb.NationalEvent {
	return &pb.NationalEvent{EventId: n.EventID, EventName: n.EventName, MaxPlacing: int32(n.MaxPlacing), Championship: n.Championship,
		Note: n.Note, AddedAt: ts(n.AddedAt), AddedBy: n.AddedBy}
}

// ListNationalEvent puts an event on the list of national events (staff).
func (s *CertificateServer) ListNationalEvent(ctx context.Context, req *pb.ListNationalEventRequest) (*pb.ListNationalEventResponse, error) {
	n, err := s.cs.ListNationalEvent(ctx, ActorFrom(ctx), idempotencyKey(ctx), certs.NationalEventInput{EventID: req.GetEventId(),
		MaxPlacing: int(req.GetMaxPlacing()), Championship: req.GetChampionship(), Note: req.GetNote()})
	if err != nil {
		return nil, err
	}
	return &pb.ListNationalEventResponse{Event: nationalEventPB(n)}, nil
}

// UnlistNationalEvent takes an event off the list (staff).
func (s *CertificateServer) UnlistNationalEvent(ctx context.Context, req *pb.UnlistNationalEventRequest) (*pb.UnlistNationalEventResponse, error) {
	if err := s.cs.UnlistNationalEvent(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetEventId(), req.GetReason()); err != nil {
		return nil, err
	}
	return &pb.UnlistNationalEventResponse{}, nil
}

// ListNationalEvents lists the nationally recognised events.
func (s *CertificateServer) ListNationalEvents(ctx context.Context, _ *pb.ListNationalEventsRequest) (*pb.ListNationalEventsResponse, error) {
	ns, err := s.cs.NationalEvents(ctx)
	if err != nil {
		return nil, err
	}
	resp := &pb.ListNationalEventsResponse{}
	for _, n := range ns {
		resp.Events = append(resp.Events, nationalEventPB(n))
	}
	return resp, nil
}

// RecognizeChampion records staff's special recognition of a champion.
func (s *CertificateServer) RecognizeChampion(ctx context.Context, req *pb.RecognizeChampionRequest) (*pb.RecognizeChampionResponse, error) {
	r, err := s.cs.RecognizeChampion(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetEventId(), req.GetPlayerId(), req.GetNote())
	if err != nil {
		return nil, err
	}
	return &pb.RecognizeChampionResponse{RecognitionId: r.ID}, nil
}

func (s *CertificateServer) SubmitApplication(ctx context.Context, req *pb.SubmitApplicationRequest) (*pb.SubmitApplicationResponse, error) {
	a, err := s.cs.Apply(ctx, ActorFrom(ctx), idempotencyKey(ctx), certs.ApplicationInput{PlayerID: req.GetPlayerId(),
		TargetRank: req.GetTargetRank(), Basis: domainOf("BASIS_", req.GetBasis()), EventID: req.GetEventId(),
		Evidence: req.GetEvidence(), AppraiserID: req.GetAppraiserId(), AppraisalSessionID: req.GetAppraisalSessionId()})
	if err != nil {
		return nil, err
	}
	return &pb.SubmitApplicationResponse{Application: applicationPB(a)}, nil
}

func (s *CertificateServer) ApproveApplication(ctx context.Context, req *pb.ApproveApplicationRequest) (*pb.ApproveApplicationResponse, error) {
	a, err := s.cs.Approve(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetId())
	if err != nil {
		return nil, err
	}
	return &pb.ApproveApplicationResponse{Application: applicationPB(a)}, nil
}

func (s *CertificateServer) RejectApplication(ctx context.Context, req *pb.RejectApplicationRequest) (*pb.RejectApplicationResponse, error) {
	a, err := s.cs.Reject(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetId(), req.GetReason())
	if err != nil {
		return nil, err
	}
	return &pb.RejectApplicationResponse{Application: applicationPB(a)}, nil
}

func (s *CertificateServer) GetApplication(ctx context.Context, req *pb.GetApplicationRequest) (*pb.GetApplicationResponse, error) {
	a, err := s.cs.GetApplication(ctx, ActorFrom(ctx), req.GetId())
	if err != nil {
		return nil, err
	}
	return &pb.GetApplicationResponse{Application: applicationPB(a)}, nil
}

func (s *CertificateServer) ListApplications(ctx context.Context, req *pb.ListApplicationsRequest) (*pb.ListApplicationsResponse, error) {
	min, err := rankOrEmpty(req.GetMinRank())
	if err != nil {
		return nil, err
	}
	as, err := s.cs.ListApplications(ctx, ActorFrom(ctx), certs.ApplicationQuery{AgencyPrefix: req.GetAgencyPrefix(),
		Status: certs.AppStatus(domainOf("APPLICATION_STATUS_", req.GetStatus())), MinRank: min})
	if err != nil {
		return nil, err
	}
	resp := &pb.ListApplicationsResponse{}
	for _, a := range as {
		resp.Applications = append(resp.Applications, applicationPB(a))
	}
	return resp, nil
}

// gradePB is an athlete grade on the wire: none, second, first or unknown.
func gradePB(g certs.AthleteGrade) pb.AthleteGrade {
	if g == certs.NoGrade {
		return pb.AthleteGrade_ATHLETE_GRADE_NONE
	}
	return enumOf[pb.AthleteGrade](pb.AthleteGrade_value, "ATHLETE_GRADE_", string(g))
}

func certificatePB(c certs.Certificate) *pb.Certificate {
	grade := gradePB(c.AthleteGrade)
	return &pb.Certificate{PaperBasis: basisPB(c.PaperBasis), Number: c.Number, PlayerName: c.PlayerName, PlayerId: c.PlayerID, Rank: c.Rank.String(),
		Basis: basisPB(c.Basis), IssuingPrefix: c.IssuingPrefix, IssuingBody: c.IssuingBody,
		IssueDate: c.IssueDate.Format(time.DateOnly), AthleteGrade: grade,
		Status:       enumOf[pb.CertificateStatus](pb.CertificateStatus_value, "CERTIFICATE_STATUS_", string(c.Status)),
		StatusReason: c.StatusReason, Replaces: c.Replaces, ReplacedBy: c.ReplacedBy, Issuer: certs.IssuerZH, FromPaper: c.FromPaper}
}

func (s *CertificateServer) VerifyCertificate(ctx context.Context, req *pb.VerifyCertificateRequest) (*pb.VerifyCertificateResponse, error) {
	v, rcs, err := s.reads.VerifyWithReceipts(ctx, req.GetNumber())
	if err != nil {
		return nil, err
	}
	resp := &pb.VerifyCertificateResponse{Number: v.Number, Found: v.Found,
		Verdict: enumOf[pb.Verdict](pb.Verdict_value, "VERDICT_", string(v.Verdict()))}
	if !v.Found {
		return resp, nil
	}
	if v.UnderReview != nil {
		// nothing of the row: it disagrees with the log
		resp.Reason, resp.Problem = v.UnderReview.Reason.Code(), v.UnderReview.Message(ledger.English)
	} else {
		resp.Certificate = certificatePB(v.Certificate)
		if v.HolderMinor && !v.ClaimMatches(req.GetName()) {
			// a minor's name only to who names him (as on /verify)
			resp.Certificate.PlayerName, resp.Certificate.PlayerId, resp.Certificate.HolderWithheld = "", 0, true
		}
	}
	for i, rc := range rcs {
		if rc == nil || i >= len(v.Events) {
			continue
		}
		pr := receiptPB(rc)
		pr.Action = v.Events[i].Action
		resp.Receipts = append(resp.Receipts, pr)
		if resp.Receipt == nil && slices.Contains(certs.IssuanceActions(), pr.Action) {
			resp.Receipt = pr
		}
	}
	return resp, nil
}

// receiptPB is a receipt as the verification page shows it, with the
// checkpoint of its tree; nil for none.
func receiptPB(rc *ledger.Receipt) *pb.LogReceipt {
	if rc == nil {
		return nil
	}
	out := &pb.LogReceipt{LeafIndex: rc.Index, TreeSize: rc.Size, Record: rc.Record, RootHash: rc.TreeHash[:], Checkpoint: string(rc.Checkpoint)}
	for _, h := range rc.Proof {
		out.Proof = append(out.Proof, h[:])
	}
	return out
}

// GetLogEntries serves the event log's entries, public or hashes alone as
// the public reads declare them.
func (s *CertificateServer) GetLogEntries(ctx context.Context, req *pb.GetLogEntriesRequest) (*pb.GetLogEntriesResponse, error) {
	es, err := s.reads.Entries(ctx, req.GetStart(), req.GetEnd())
	if err != nil {
		return nil, err
	}
	resp := &pb.GetLogEntriesResponse{}
	for _, e := range es {
		resp.Entries = append(resp.Entries, &pb.LogEntry{Id: e.ID, Public: e.Public, At: e.At, Actor: e.Actor, Action: e.Action,
			EntityType: e.EntityType, EntityId: e.EntityID, Payload: e.Payload, PrevHash: e.PrevHash, Hash: e.Hash})
	}
	return resp, nil
}

func (s *CertificateServer) VerifyCertificates(ctx context.Context, req *pb.VerifyCertificatesRequest) (*pb.VerifyCertificatesResponse, error) {
	rows := make([]certs.BatchRow, len(req.GetClaims()))
	for i, c := range req.GetClaims() {
		rows[i] = certs.BatchRow{Number: c.GetNumber(), Name: c.GetName()}
	}
	results, err := s.reads.VerifyBatch(ctx, rows)
	if err != nil {
		return nil, err
	}
	resp := &pb.VerifyCertificatesResponse{}
	for i, r := range results {
		v := &pb.ClaimVerdict{Claim: req.GetClaims()[i], Number: r.Number,
			Verdict: enumOf[pb.Verdict](pb.Verdict_value, "VERDICT_", string(r.Verdict))}
		if r.Certificate != nil {
			v.Certificate = certificatePB(*r.Certificate)
			v.Certificate.HolderWithheld = r.HolderWithheld
		}
		if r.Problem != nil {
			v.Problem, v.Reason = r.Problem.Message(ledger.English), r.Problem.Reason.Code()
		}
		resp.Verdicts = append(resp.Verdicts, v)
	}
	return resp, nil
}

func (s *CertificateServer) ListPlayerCertificates(ctx context.Context, req *pb.ListPlayerCertificatesRequest) (*pb.ListPlayerCertificatesResponse, error) {
	cs, err := s.reads.PlayerCertificates(ctx, req.GetPlayerId())
	if err != nil {
		return nil, err
	}
	resp := &pb.ListPlayerCertificatesResponse{}
	for _, c := range cs {
		resp.Certificates = append(resp.Certificates, certificatePB(c))
	}
	return resp, nil
}

func (s *CertificateServer) RevokeCertificate(ctx context.Context, req *pb.RevokeCertificateRequest) (*pb.RevokeCertificateResponse, error) {
	c, err := s.cs.Revoke(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetNumber(), req.GetReason())
	if err != nil {
		return nil, err
	}
	return &pb.RevokeCertificateResponse{Certificate: certificatePB(c)}, nil
}

func (s *CertificateServer) ListCertificatesForReview(ctx context.Context, _ *pb.ListCertificatesForReviewRequest) (*pb.ListCertificatesForReviewResponse, error) {
	rs, err := s.cs.CertificatesForReview(ctx, ActorFrom(ctx))
	if err != nil {
		return nil, err
	}
	resp := &pb.ListCertificatesForReviewResponse{}
	for _, r := range rs {
		resp.Certificates = append(resp.Certificates, &pb.CertificateForReview{Number: r.Number, PlayerId: r.PlayerID, PlayerName: r.PlayerName,
			Rank: r.Rank.String(), IssuingPrefix: r.IssuingPrefix, Reason: r.Reason, ReasonCode: r.Code, ReasonParams: r.Params})
	}
	return resp, nil
}

func (s *CertificateServer) KeepCertificate(ctx context.Context, req *pb.KeepCertificateRequest) (*pb.KeepCertificateResponse, error) {
	c, err := s.cs.KeepCertificate(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetNumber(), req.GetNote())
	if err != nil {
		return nil, err
	}
	return &pb.KeepCertificateResponse{Certificate: certificatePB(c)}, nil
}

func (s *CertificateServer) ReissueCertificate(ctx context.Context, req *pb.ReissueCertificateRequest) (*pb.ReissueCertificateResponse, error) {
	c, err := s.cs.Reissue(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetNumber(), req.GetReason())
	if err != nil {
		return nil, err
	}
	return &pb.ReissueCertificateResponse{Certificate: certificatePB(c)}, nil
}

func (s *CertificateServer) ExportRoster(ctx context.Context, req *pb.ExportRosterRequest) (*pb.ExportRosterResponse, error) {
	var buf bytes.Buffer
	write := s.cs.WriteRoster
	switch req.GetFormat() {
	case "", "csv":
	case "xlsx":
		write = s.cs.WriteRosterXLSX
	default:
		return nil, certs.ReasonRosterFormat.OnField("format", "value", req.GetFormat())
	}
	n, err := write(ctx, ActorFrom(ctx), req.GetAgencyPrefix(), &buf)
	if err != nil {
		return nil, err
	}
	return &pb.ExportRosterResponse{Csv: buf.Bytes(), Rows: int32(n)}, nil
}

func (s *CertificateServer) ImportPaperCertificates(ctx context.Context, req *pb.ImportPaperCertificatesRequest) (*pb.ImportPaperCertificatesResponse, error) {
	skip := make([]int, len(req.GetSkipLines()))
	for i, l := range req.GetSkipLines() {
		skip[i] = int(l)
	}
	res, err := s.cs.ImportPaper(ctx, ActorFrom(ctx), idempotencyKey(ctx), certs.PaperInput{Data: req.GetData(), DryRun: req.GetDryRun(), Skip: skip})
	if err != nil {
		return nil, err
	}
	resp := &pb.ImportPaperCertificatesResponse{Encoding: res.Encoding, Bad: int32(res.Bad), Imported: int32(res.Imported)}
	for _, r := range res.Rows {
		row := &pb.PaperRow{Line: int32(r.Line), Number: r.Number, Name: r.Name, Skipped: r.Skipped, Basis: basisPB(r.Basis)}
		if r.Grade != "" || len(r.Problems) == 0 {
			row.AthleteGrade = gradePB(r.Grade)
		}
		for _, p := range r.Problems {
			row.Problems, row.Reasons = append(row.Problems, p.Error()), append(row.Reasons, p.Reason.Code())
		}
		resp.Rows = append(resp.Rows, row)
	}
	return resp, nil
}

func (s *CertificateServer) SubmitPaperCertificates(ctx context.Context, req *pb.SubmitPaperCertificatesRequest) (*pb.SubmitPaperCertificatesResponse, error) {
	skip := make([]int, len(req.GetSkipLines()))
	for i, l := range req.GetSkipLines() {
		skip[i] = int(l)
	}
	sub, err := s.cs.SubmitPaper(ctx, ActorFrom(ctx), idempotencyKey(ctx), certs.PaperInput{Data: req.GetData(), Skip: skip})
	if err != nil {
		return nil, err
	}
	return &pb.SubmitPaperCertificatesResponse{SubmissionId: sub.ID, Rows: int32(sub.Rows)}, nil
}

func (s *CertificateServer) DecidePaperSubmission(ctx context.Context, req *pb.DecidePaperSubmissionRequest) (*pb.DecidePaperSubmissionResponse, error) {
	sub, err := s.cs.DecidePaper(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetSubmissionId(), req.GetConfirm(), req.GetNote())
	if err != nil {
		return nil, err
	}
	return &pb.DecidePaperSubmissionResponse{Status: sub.Status, Imported: int32(sub.Result.Imported)}, nil
}

func (s *CertificateServer) SubmitRoster(ctx context.Context, req *pb.SubmitRosterRequest) (*pb.SubmitRosterResponse, error) {
	sub, err := s.cs.SubmitRoster(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetAgencyPrefix())
	if err != nil {
		return nil, err
	}
	return &pb.SubmitRosterResponse{Submission: submissionPB(sub)}, nil
}

func (s *CertificateServer) ListRosterSubmissions(ctx context.Context, req *pb.ListRosterSubmissionsRequest) (*pb.ListRosterSubmissionsResponse, error) {
	subs, err := s.cs.RosterSubmissions(ctx, ActorFrom(ctx), int(req.GetYear()))
	if err != nil {
		return nil, err
	}
	resp := &pb.ListRosterSubmissionsResponse{}
	for _, sub := range subs {
		resp.Submissions = append(resp.Submissions, submissionPB(sub))
	}
	return resp, nil
}

func submissionPB(s certs.RosterSubmission) *pb.RosterSubmission {
	return &pb.RosterSubmission{Id: s.ID, AgencyPrefix: s.AgencyPrefix, Year: int32(s.Year), SubmittedAt: timestamppb.New(s.SubmittedAt),
		SubmittedBy: s.SubmittedBy, Rows: int32(s.Rows), Added: s.Added, Removed: s.Removed, First: s.First,
		LogSize: s.LogSize, LogHash: s.LogHash}
}

// NoticeServer serves dankyu.v1.NoticeService.
type NoticeServer struct {
	pb.UnimplementedNoticeServiceServer
	cs    *certs.Service
	reads NoticeReads
}

// NewNoticeServer serves the notices of cs, the public's reads from reads.
func NewNoticeServer(cs *certs.Service, reads NoticeReads) *NoticeServer {
	return &NoticeServer{cs: cs, reads: reads}
}

func noticePB(n certs.Notice) *pb.Notice {
	out := &pb.Notice{Id: n.ID, PlayerName: n.PlayerName, ProvinceCode: n.ProvinceCode, AgencyPrefix: n.AgencyPrefix,
		AgencyName: n.AgencyName, Rank: n.Rank.String(), Basis: basisPB(n.Basis), BasisDetail: n.BasisDetail,
		PublishedAt: ts(n.PublishedAt), EndsAt: ts(n.EndsAt),
		Status:     enumOf[pb.NoticeStatus](pb.NoticeStatus_value, "NOTICE_STATUS_", string(n.Status)),
		Objections: int32(n.Objections), OpenObjections: int32(n.OpenObjections), CertificateNumber: n.CertificateNumber}
	switch n.Gender {
	case registry.Male:
		out.Gender = pb.Gender_GENDER_MALE
	case registry.Female:
		out.Gender = pb.Gender_GENDER_FEMALE
	}
	return out
}

func (s *NoticeServer) ListNotices(ctx context.Context, req *pb.ListNoticesRequest) (*pb.ListNoticesResponse, error) {
	rank, err := rankOrEmpty(req.GetRank())
	if err != nil {
		return nil, err
	}
	q := certs.NoticeQuery{ProvinceCode: req.GetProvinceCode(), Rank: rank, State: req.GetState(),
		PageSize: int(req.GetPageSize()), PageToken: req.GetPageToken()}
	page, err := s.reads.ListNotices(ctx, q)
	if err != nil {
		return nil, err
	}
	resp := &pb.ListNoticesResponse{NextPageToken: page.NextPageToken}
	for _, n := range page.Notices {
		resp.Notices = append(resp.Notices, noticePB(n))
	}
	return resp, nil
}

func (s *NoticeServer) GetNotice(ctx context.Context, req *pb.GetNoticeRequest) (*pb.GetNoticeResponse, error) {
	n, err := s.reads.GetNotice(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	return &pb.GetNoticeResponse{Notice: noticePB(n)}, nil
}

// peerHost is the caller's IP address, which limits objections per
// address: the one RateLimitInterceptor found (a trusted proxy's client),
// else the peer's.
func peerHost(ctx context.Context) string {
	if c, ok := ctx.Value(clientKey{}).(string); ok && c != "" {
		return c
	}
	p, ok := peer.FromContext(ctx)
	if !ok || p.Addr == nil {
		return ""
	}
	host, _, err := net.SplitHostPort(p.Addr.String())
	if err != nil {
		return p.Addr.String()
	}
	return host
}

func (s *NoticeServer) LodgeObjection(ctx context.Context, req *pb.LodgeObjectionRequest) (*pb.LodgeObjectionResponse, error) {
	o, err := s.cs.LodgeObjection(ctx, idempotencyKey(ctx), certs.ObjectionInput{NoticeID: req.GetNoticeId(), Name: req.GetName(),
		Contact: req.GetContact(), Reason: req.GetReason(), Address: peerHost(ctx)})
	if err != nil {
		return nil, err
	}
	return &pb.LodgeObjectionResponse{Id: o.ID, Status: pb.ObjectionStatus_OBJECTION_STATUS_OPEN}, nil
}

func objectionPB(o certs.Objection) *pb.Objection {
	return &pb.Objection{Id: o.ID, NoticeId: o.NoticeID, Name: o.Name, Contact: o.Contact, Reason: o.Reason, Address: o.Address,
		LodgedAt: ts(o.LodgedAt), Status: enumOf[pb.ObjectionStatus](pb.ObjectionStatus_value, "OBJECTION_STATUS_", string(o.Status)),
		RuledAt: tsp(o.RuledAt), RuledBy: o.RuledBy, Ruling: o.Ruling, FoldedInto: o.FoldedInto, Folded: int32(o.Folded)}
}

func (s *NoticeServer) ListObjections(ctx context.Context, req *pb.ListObjectionsRequest) (*pb.ListObjectionsResponse, error) {
	os, err := s.cs.ListObjections(ctx, ActorFrom(ctx), req.GetNoticeId(), req.GetOpenOnly())
	if err != nil {
		return nil, err
	}
	resp := &pb.ListObjectionsResponse{}
	for _, o := range os {
		resp.Objections = append(resp.Objections, objectionPB(o))
	}
	return resp, nil
}

func (s *NoticeServer) RuleObjection(ctx context.Context, req *pb.RuleObjectionRequest) (*pb.RuleObjectionResponse, error) {
	o, err := s.cs.RuleObjection(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetId(), req.GetUphold(), req.GetRuling())
	if err != nil {
		return nil, err
	}
	return &pb.RuleObjectionResponse{Objection: objectionPB(o)}, nil
}

func (s *NoticeServer) RuleObjections(ctx context.Context, req *pb.RuleObjectionsRequest) (*pb.RuleObjectionsResponse, error) {
	r, err := s.cs.RuleObjections(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetNoticeId(), req.GetObjectionIds(), req.GetRuling())
	if err != nil {
		return nil, err
	}
	return &pb.RuleObjectionsResponse{DismissedIds: r.Dismissed, CertificateNumber: r.CertificateNumber}, nil
}

func appraisalPB(a certs.AppraisalSession) *pb.AppraisalSession {
	verdict := certs.NotPassed
	if a.Passed() {
		verdict = a.Verdict.String()
	}
	out := &pb.AppraisalSession{Id: a.ID, AgencyPrefix: a.AgencyPrefix, AppraiserId: a.AppraiserID, AppraiserName: a.AppraiserName,
		PlayerId: a.PlayerID, PlayerName: a.PlayerName, HeldOn: a.HeldOn.Format(time.DateOnly), Verdict: verdict, Note: a.Note,
		Status:     enumOf[pb.AppraisalStatus](pb.AppraisalStatus_value, "APPRAISAL_STATUS_", string(a.Status)),
		RecordedAt: ts(a.RecordedAt), RecordedBy: a.RecordedBy, WithdrawnAt: tsp(a.WithdrawnAt), WithdrawnBy: a.WithdrawnBy,
		WithdrawReason: a.WithdrawReason}
	for _, g := range a.Games {
		out.Games = append(out.Games, &pb.AppraisalGame{Seq: int32(g.Seq), Opponent: g.Opponent, Colour: g.Colour, Result: g.Result,
			Sgf: g.SGF, Moves: int32(g.Moves)})
	}
	return out
}

func (s *CertificateServer) RecordAppraisal(ctx context.Context, req *pb.RecordAppraisalRequest) (*pb.RecordAppraisalResponse, error) {
	in := certs.AppraisalInput{AgencyPrefix: req.GetAgencyPrefix(), AppraiserID: req.GetAppraiserId(), PlayerID: req.GetPlayerId(),
		HeldOn: req.GetHeldOn(), Verdict: req.GetVerdict(), Note: req.GetNote()}
	for _, g := range req.GetGames() {
		in.Games = append(in.Games, certs.AppraisalGameInput{Opponent: g.GetOpponent(), Colour: g.GetColour(), Result: g.GetResult(), SGF: g.GetSgf()})
	}
	a, err := s.cs.RecordAppraisal(ctx, ActorFrom(ctx), idempotencyKey(ctx), in)
	if err != nil {
		return nil, err
	}
	return &pb.RecordAppraisalResponse{Session: appraisalPB(a)}, nil
}

func (s *CertificateServer) WithdrawAppraisal(ctx context.Context, req *pb.WithdrawAppraisalRequest) (*pb.WithdrawAppraisalResponse, error) {
	a, err := s.cs.WithdrawAppraisal(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetId(), req.GetReason())
	if err != nil {
		return nil, err
	}
	return &pb.WithdrawAppraisalResponse{Session: appraisalPB(a)}, nil
}

func (s *CertificateServer) GetAppraisal(ctx context.Context, req *pb.GetAppraisalRequest) (*pb.GetAppraisalResponse, error) {
	a, err := s.cs.GetAppraisal(ctx, ActorFrom(ctx), req.GetId())
	if err != nil {
		return nil, err
	}
	return &pb.GetAppraisalResponse{Session: appraisalPB(a)}, nil
}

func (s *CertificateServer) ListAppraisals(ctx context.Context, req *pb.ListAppraisalsRequest) (*pb.ListAppraisalsResponse, error) {
	as, err := s.cs.ListAppraisals(ctx, ActorFrom(ctx), req.GetAgencyPrefix(), req.GetPlayerId())
	if err != nil {
		return nil, err
	}
	resp := &pb.ListAppraisalsResponse{}
	for _, a := range as {
		resp.Sessions = append(resp.Sessions, appraisalPB(a))
	}
	return resp, nil
}
