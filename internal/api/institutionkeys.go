package api

import (
	"context"

	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/registry"
)

func (s *RegistryServer) IssueInstitutionKey(ctx context.Context, req *pb.IssueInstitutionKeyRequest) (*pb.IssueInstitutionKeyResponse, error) {
	key, k, err := s.reg.IssueInstitutionKey(ctx, ActorFrom(ctx), registry.InstitutionKeyInput{Institution: req.GetInstitution(),
		Kind: req.GetKind(), Quota: int(req.GetQuota()), Per: req.GetPer()})
	if err != nil {
		return nil, err
	}
	return &pb.IssueInstitutionKeyResponse{ApiKey: key, Key: institutionKeyPB(k)}, nil
}

func (s *RegistryServer) ListInstitutionKeys(ctx context.Context, _ *pb.ListInstitutionKeysRequest) (*pb.ListInstitutionKeysResponse, error) {
	ks, err := s.reg.ListInstitutionKeys(ctx, ActorFrom(ctx))
	if err != nil {
		return nil, err
	}
	resp := &pb.ListInstitutionKeysResponse{}
	for _, k := range ks {
		resp.Keys = append(resp.Keys, institutionKeyPB(k))
	}
	return resp, nil
}

func (s *RegistryServer) RevokeInstitutionKey(ctx context.Context, req *pb.RevokeInstitutionKeyRequest) (*pb.RevokeInstitutionKeyResponse, error) {
	k, err := s.reg.RevokeInstitutionKey(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetId(), req.GetReason())
	if err != nil {
		return nil, err
	}
	return &pb.RevokeInstitutionKeyResponse{Key: institutionKeyPB(k)}, nil
}

func (s *RegistryServer) GetInstitutionKeyUsage(ctx context.Context, req *pb.GetInstitutionKeyUsageRequest) (*pb.GetInstitutionKeyUsageResponse, error) {
	k, use, err := s.reg.InstitutionKeyUsage(ctx, ActorFrom(ctx), req.GetId(), int(req.GetLimit()))
	if err != nil {
		return nil, err
	}
	resp := &pb.GetInstitutionKeyUsageResponse{Key: institutionKeyPB(k)}
	for _, u := range use {
		resp.Windows = append(resp.Windows, &pb.KeyUsageWindow{WindowStart: timestamppb.New(u.WindowStart), Used: int32(u.Used), Refused: int32(u.Refused)})
		resp.TotalUsed += int64(u.Used)
	}
	return resp, nil
}

func institutionKeyPB(k registry.InstitutionKey) *pb.InstitutionKey {
	out := &pb.InstitutionKey{Id: k.ID, Shown: k.Shown, Institution: k.Institution, Kind: k.Kind, Quota: int32(k.Quota), Per: k.Per,
		IssuedAt: timestamppb.New(k.IssuedAt), IssuedBy: k.IssuedBy, RevokeReason: k.RevokeReason}
	if k.RevokedAt != nil {
		out.RevokedAt = timestamppb.New(*k.RevokedAt)
	}
	return out
}
