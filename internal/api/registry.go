package api

import (
	"context"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/registry"
)

// RegistryServer serves dankyu.v1.RegistryService.
type RegistryServer struct {
	pb.UnimplementedRegistryServiceServer
	reg    *registry.Service
	merger Merger
	reads  RegistryReads
}

// Merger merges two records of one person (internal/records).
type Merger interface {
	Merge(ctx context.Context, actor ledger.Actor, key string, keep, dup int64) error
}

// NewRegistryServer serves the registry reg, the public's reads from
// reads; merger merges records.
func NewRegistryServer(reg *registry.Service, merger Merger, reads RegistryReads) *RegistryServer {
	return &RegistryServer{reg: reg, merger: merger, reads: reads}
}

func (s *RegistryServer) TransferPlayer(ctx context.Context, req *pb.TransferPlayerRequest) (*pb.TransferPlayerResponse, error) {
	actor := ActorFrom(ctx)
	p, err := s.reg.TransferPlayer(ctx, actor, idempotencyKey(ctx), req.GetPlayerId(), req.GetProvinceCode())
	if err != nil {
		return nil, err
	}
	return &pb.TransferPlayerResponse{Player: s.playerPB(ctx, actor, p)}, nil
}

func (s *RegistryServer) MergePlayers(ctx context.Context, req *pb.MergePlayersRequest) (*pb.MergePlayersResponse, error) {
	actor := ActorFrom(ctx)
	if err := s.merger.Merge(ctx, actor, idempotencyKey(ctx), req.GetKeepId(), req.GetDuplicateId()); err != nil {
		return nil, err
	}
	p, err := s.reg.GetPlayer(ctx, req.GetKeepId())
	if err != nil {
		return nil, err
	}
	return &pb.MergePlayersResponse{Player: s.playerPB(ctx, actor, p)}, nil
}

func (s *RegistryServer) ListProvinces(context.Context, *pb.ListProvincesRequest) (*pb.ListProvincesResponse, error) {
	resp := &pb.ListProvincesResponse{}
	for _, p := range registry.Provinces() {
		resp.Provinces = append(resp.Provinces, &pb.Province{Code: p.Code, Prefix: p.Prefix, NameZh: p.NameZH, NameEn: p.NameEN})
	}
	return resp, nil
}

func (s *RegistryServer) CreateAgency(ctx context.Context, req *pb.CreateAgencyRequest) (*pb.CreateAgencyResponse, error) {
	a, err := s.reg.CreateAgency(ctx, ActorFrom(ctx), idempotencyKey(ctx),
		registry.AgencyInput{Prefix: req.GetPrefix(), Name: req.GetName(), Contact: req.GetContact()})
	if err != nil {
		return nil, err
	}
	return &pb.CreateAgencyResponse{Agency: agencyPB(a)}, nil
}

func (s *RegistryServer) SetAgencyStatus(ctx context.Context, req *pb.SetAgencyStatusRequest) (*pb.SetAgencyStatusResponse, error) {
	var st registry.AgencyStatus
	switch req.GetStatus() {
	case pb.AgencyStatus_AGENCY_STATUS_ACTIVE:
		st = registry.AgencyActive
	case pb.AgencyStatus_AGENCY_STATUS_SUSPENDED:
		st = registry.AgencySuspended
	}
	a, err := s.reg.SetAgencyStatus(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetPrefix(), st, req.GetReason())
	if err != nil {
		return nil, err
	}
	return &pb.SetAgencyStatusResponse{Agency: agencyPB(a)}, nil
}

func (s *RegistryServer) GetAgency(ctx context.Context, req *pb.GetAgencyRequest) (*pb.GetAgencyResponse, error) {
	a, err := s.reads.GetAgency(ctx, req.GetPrefix())
	if err != nil {
		return nil, err
	}
	return &pb.GetAgencyResponse{Agency: agencyPB(a)}, nil
}

func (s *RegistryServer) ListAgencies(ctx context.Context, _ *pb.ListAgenciesRequest) (*pb.ListAgenciesResponse, error) {
	as, err := s.reads.ListAgencies(ctx)
	if err != nil {
		return nil, err
	}
	resp := &pb.ListAgenciesResponse{}
	for _, a := range as {
		resp.Agencies = append(resp.Agencies, agencyPB(a))
	}
	return resp, nil
}

func (s *RegistryServer) RegisterPlayer(ctx context.Context, req *pb.RegisterPlayerRequest) (*pb.RegisterPlayerResponse, error) {
	actor := ActorFrom(ctx)
	p, err := s.reg.RegisterPlayer(ctx, actor, idempotencyKey(ctx), playerInput(req.GetPlayer()))
	if err != nil {
		return nil, err
	}
	return &pb.RegisterPlayerResponse{Player: s.playerPB(ctx, actor, p)}, nil
}

func (s *RegistryServer) UpdatePlayer(ctx context.Context, req *pb.UpdatePlayerRequest) (*pb.UpdatePlayerResponse, error) {
	actor := ActorFrom(ctx)
	in := playerInput(req.GetPlayer())
	in.ChangeReason = req.GetChangeReason()
	u, err := s.reg.UpdatePlayer(ctx, actor, idempotencyKey(ctx), req.GetId(), in)
	if err != nil {
		return nil, err
	}
	resp := &pb.UpdatePlayerResponse{Player: s.playerPB(ctx, actor, u.Player)}
	if u.Held != nil {
		resp.HeldIdentityChange = identityChangePB(*u.Held)
	}
	return resp, nil
}

func (s *RegistryServer) SetPlayerLatinName(ctx context.Context, req *pb.SetPlayerLatinNameRequest) (*pb.SetPlayerLatinNameResponse, error) {
	actor := ActorFrom(ctx)
	p, err := s.reg.SetLatinName(ctx, actor, idempotencyKey(ctx), req.GetId(), req.GetLatinName())
	if err != nil {
		return nil, err
	}
	return &pb.SetPlayerLatinNameResponse{Player: s.playerPB(ctx, actor, p)}, nil
}

func (s *RegistryServer) SetPlayerExternalId(ctx context.Context, req *pb.SetPlayerExternalIdRequest) (*pb.SetPlayerExternalIdResponse, error) {
	actor := ActorFrom(ctx)
	p, err := s.reg.SetExternalID(ctx, actor, idempotencyKey(ctx), req.GetId(), req.GetScheme(), req.GetValue())
	if err != nil {
		return nil, err
	}
	return &pb.SetPlayerExternalIdResponse{Player: s.playerPB(ctx, actor, p)}, nil
}

func (s *RegistryServer) ListIdentityChanges(ctx context.Context, req *pb.ListIdentityChangesRequest) (*pb.ListIdentityChangesResponse, error) {
	q := registry.IdentityChangeQuery{PlayerID: req.GetPlayerId(), Limit: int(req.GetLimit())}
	for st, v := range changeStatuses {
		if v == req.GetStatus() && v != pb.IdentityChangeStatus_IDENTITY_CHANGE_STATUS_UNSPECIFIED {
			q.Status = st
		}
	}
	cs, err := s.reg.ListIdentityChanges(ctx, ActorFrom(ctx), q)
	if err != nil {
		return nil, err
	}
	resp := &pb.ListIdentityChangesResponse{}
	for _, c := range cs {
		resp.Changes = append(resp.Changes, identityChangePB(c))
	}
	return resp, nil
}

func (s *RegistryServer) DecideIdentityChange(ctx context.Context, req *pb.DecideIdentityChangeRequest) (*pb.DecideIdentityChangeResponse, error) {
	c, err := s.reg.DecideIdentityChange(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetId(), req.GetApprove(), req.GetReason())
	if err != nil {
		return nil, err
	}
	return &pb.DecideIdentityChangeResponse{Change: identityChangePB(c)}, nil
}

var changeStatuses = map[registry.IdentityChangeStatus]pb.IdentityChangeStatus{
	registry.ChangePending:  pb.IdentityChangeStatus_IDENTITY_CHANGE_STATUS_PENDING,
	registry.ChangeApproved: pb.IdentityChangeStatus_IDENTITY_CHANGE_STATUS_APPROVED,
	registry.ChangeRejected: pb.IdentityChangeStatus_IDENTITY_CHANGE_STATUS_REJECTED,
	registry.ChangeApplied:  pb.IdentityChangeStatus_IDENTITY_CHANGE_STATUS_APPLIED,
}

func identityKindPB(k registry.IdentityKind) pb.IdentityKind {
	if k == registry.Passport {
		return pb.IdentityKind_IDENTITY_KIND_PASSPORT
	}
	return pb.IdentityKind_IDENTITY_KIND_RESIDENT_ID
}

// identityChangePB converts a change; its numbers are masked already.
func identityChangePB(c registry.IdentityChange) *pb.IdentityChange {
	out := &pb.IdentityChange{Id: c.ID, PlayerId: c.PlayerID, PlayerName: c.PlayerName, AgencyPrefix: c.AgencyPrefix,
		Status: changeStatuses[c.Status], Reason: c.Reason, RequestedAt: timestamppb.New(c.RequestedAt), RequestedBy: c.RequestedBy,
		OldBirthDate: c.OldBirthDate.Format(time.DateOnly), NewBirthDate: c.NewBirthDate.Format(time.DateOnly),
		OldNationality: c.OldNationality, NewNationality: c.NewNationality,
		OldIdentityKind: identityKindPB(c.OldIDKind), NewIdentityKind: identityKindPB(c.NewIDKind),
		OldIdentityNumberMasked: c.OldIDMasked, NewIdentityNumberMasked: c.NewIDMasked,
		DecidedBy: c.DecidedBy, DecisionReason: c.DecisionReason}
	if c.DecidedAt != nil {
		out.DecidedAt = timestamppb.New(*c.DecidedAt)
	}
	return out
}

func (s *RegistryServer) GetPlayer(ctx context.Context, req *pb.GetPlayerRequest) (*pb.GetPlayerResponse, error) {
	p, err := s.reads.GetPlayer(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	return &pb.GetPlayerResponse{Player: s.playerPB(ctx, ActorFrom(ctx), p)}, nil
}

func (s *RegistryServer) SearchPlayers(ctx context.Context, req *pb.SearchPlayersRequest) (*pb.SearchPlayersResponse, error) {
	page, err := s.reads.SearchPlayers(ctx, ActorFrom(ctx), registry.PlayerQuery{Name: req.GetName(), ProvinceCode: req.GetProvinceCode(),
		Rank: req.GetRank(), PageSize: int(req.GetPageSize()), PageToken: req.GetPageToken()})
	if err != nil {
		return nil, err
	}
	resp := &pb.SearchPlayersResponse{NextPageToken: page.NextPageToken, Total: page.Total}
	for _, v := range s.reg.ViewPlayers(ctx, ActorFrom(ctx), page.Players) {
		resp.Players = append(resp.Players, playerPB(v))
	}
	return resp, nil
}

func (s *RegistryServer) RecordHonoraryDan(ctx context.Context, req *pb.RecordHonoraryDanRequest) (*pb.RecordHonoraryDanResponse, error) {
	actor := ActorFrom(ctx)
	p, err := s.reg.RecordHonoraryDan(ctx, actor, idempotencyKey(ctx), req.GetPlayerId(), req.GetBasis())
	if err != nil {
		return nil, err
	}
	return &pb.RecordHonoraryDanResponse{Player: s.playerPB(ctx, actor, p)}, nil
}

func agencyPB(a registry.Agency) *pb.Agency {
	st := pb.AgencyStatus_AGENCY_STATUS_ACTIVE
	if a.Status == registry.AgencySuspended {
		st = pb.AgencyStatus_AGENCY_STATUS_SUSPENDED
	}
	return &pb.Agency{Prefix: a.Prefix, Name: a.Name, Contact: a.Contact, Status: st, CreatedAt: timestamppb.New(a.CreatedAt)}
}

func playerInput(in *pb.PlayerInput) registry.PlayerInput {
	out := registry.PlayerInput{Name: in.GetName(), BirthDate: in.GetBirthDate(), Nationality: in.GetNationality(),
		IDNumber: in.GetIdentityNumber(), ProvinceCode: in.GetProvinceCode(), Rank: in.GetRank()}
	switch in.GetGender() {
	case pb.Gender_GENDER_MALE:
		out.Gender = registry.Male
	case pb.Gender_GENDER_FEMALE:
		out.Gender = registry.Female
	}
	switch in.GetIdentityKind() {
	case pb.IdentityKind_IDENTITY_KIND_RESIDENT_ID:
		out.IDKind = registry.ResidentIDCard
	case pb.IdentityKind_IDENTITY_KIND_PASSPORT:
		out.IDKind = registry.Passport
	}
	return out
}

// playerPB converts a player for actor through the registry's one view of
// a player (registry.PlayerView), the portal's too: the identity number and
// birth date only for staff and the player's own agency, the number masked
// for everyone else; a minor's gender, birth year, nationality and identity
// only for them too.
func (s *RegistryServer) playerPB(ctx context.Context, actor ledger.Actor, p registry.Player) *pb.Player {
	return playerPB(s.reg.ViewPlayer(ctx, actor, p))
}

func playerPB(v registry.PlayerView) *pb.Player {
	out := &pb.Player{Id: v.ID, Name: v.Name, ProvinceCode: v.ProvinceCode, AgencyPrefix: v.AgencyPrefix, Rank: v.Rank.String(),
		DeclaredRank: v.DeclaredRank.String(), MergedInto: v.MergedInto, CreatedAt: timestamppb.New(v.CreatedAt), UpdatedAt: timestamppb.New(v.UpdatedAt),
		BirthYear: int32(v.BirthYear), Nationality: v.Nationality, IdentityNumber: v.IDNumber,
		LatinName: v.LatinName, LatinNameStated: v.LatinStated, ExternalIds: v.ExternalIDs}
	switch v.Gender {
	case registry.Male:
		out.Gender = pb.Gender_GENDER_MALE
	case registry.Female:
		out.Gender = pb.Gender_GENDER_FEMALE
	}
	switch v.IDKind {
	case registry.ResidentIDCard:
		out.IdentityKind = pb.IdentityKind_IDENTITY_KIND_RESIDENT_ID
	case registry.Passport:
		out.IdentityKind = pb.IdentityKind_IDENTITY_KIND_PASSPORT
	}
	if v.FullIdentity {
		out.BirthDate = v.BirthDate.Format(time.DateOnly)
	}
	return out
}

func affiliationPB(a registry.Affiliation) *pb.PlayerAffiliation {
	out := &pb.PlayerAffiliation{Id: a.ID, PlayerId: a.PlayerID, Kind: string(a.Kind), Name: a.Name, FromDate: a.From.Format(time.DateOnly),
		RecordedAt: timestamppb.New(a.RecordedAt), RecordedBy: a.RecordedBy}
	if a.To != nil {
		out.ToDate = a.To.Format(time.DateOnly)
	}
	return out
}

func (s *RegistryServer) SetPlayerAffiliation(ctx context.Context, req *pb.SetPlayerAffiliationRequest) (*pb.SetPlayerAffiliationResponse, error) {
	a, err := s.reg.SetAffiliation(ctx, ActorFrom(ctx), idempotencyKey(ctx), registry.AffiliationInput{PlayerID: req.GetPlayerId(),
		Kind: req.GetKind(), Name: req.GetName(), From: req.GetFromDate()})
	if err != nil {
		return nil, err
	}
	return &pb.SetPlayerAffiliationResponse{Affiliation: affiliationPB(a)}, nil
}

func (s *RegistryServer) ListPlayerAffiliations(ctx context.Context, req *pb.ListPlayerAffiliationsRequest) (*pb.ListPlayerAffiliationsResponse, error) {
	as, err := s.reg.Affiliations(ctx, req.GetPlayerId())
	if err != nil {
		return nil, err
	}
	resp := &pb.ListPlayerAffiliationsResponse{}
	for _, a := range as {
		resp.Affiliations = append(resp.Affiliations, affiliationPB(a))
	}
	return resp, nil
}

func (s *RegistryServer) LinkPlayerFamily(ctx context.Context, req *pb.LinkPlayerFamilyRequest) (*pb.LinkPlayerFamilyResponse, error) {
	if err := s.reg.LinkFamily(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetPlayerA(), req.GetPlayerB()); err != nil {
		return nil, err
	}
	return &pb.LinkPlayerFamilyResponse{}, nil
}
