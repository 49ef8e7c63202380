package api

import (
	"context"

	"github.com/dankyu/dankyu/certs"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// StatisticsServer serves dankyu.v1.StatisticsService.
type StatisticsServer struct {
	pb.UnimplementedStatisticsServiceServer
	reads StatisticsReads
}

// NewStatisticsServer serves the statistics reads answers.
func NewStatisticsServer(reads StatisticsReads) *StatisticsServer {
	return &StatisticsServer{reads: reads}
}

func (s *StatisticsServer) GetStatistics(ctx context.Context, req *pb.GetStatisticsRequest) (*pb.GetStatisticsResponse, error) {
	st, err := s.reads.Statistics(ctx, ActorFrom(ctx), int(req.GetYear()), req.GetDetails())
	if err != nil {
		return nil, err
	}
	out := &pb.GetStatisticsResponse{Year: int32(st.Year), Notices: noticeCountsPB(st.Notices)}
	for _, y := range st.Years {
		out.Years = append(out.Years, &pb.YearCount{Year: int32(y.Year), Certificates: int32(y.Certificates)})
	}
	for _, p := range st.Provinces {
		out.Provinces = append(out.Provinces, &pb.ProvinceCount{Prefix: p.Prefix, Certificates: int32(p.Certificates),
			Holders: int32(p.Holders), Players: int32(p.Players), HoldersPer_10K: p.HoldersPer10k()})
	}
	for _, r := range st.Ranks {
		out.Ranks = append(out.Ranks, &pb.RankCount{Rank: r.Rank.String(), Certificates: int32(r.Certificates)})
	}
	for _, b := range st.Bases {
		out.Bases = append(out.Bases, &pb.BasisCount{Basis: basisPB(b.Basis), Certificates: int32(b.Certificates)})
	}
	for _, a := range st.Agencies {
		ac := &pb.AgencyCount{AgencyPrefix: a.Prefix, Certificates: int32(a.Certificates), Revoked: int32(a.Revoked),
			Notices: noticeCountsPB(a.Notices)}
		for _, b := range certs.Bases() {
			ac.Bases = append(ac.Bases, &pb.BasisCount{Basis: basisPB(b), Certificates: int32(a.ByBasis[b])})
		}
		out.Agencies = append(out.Agencies, ac)
	}
	return out, nil
}

func noticeCountsPB(c certs.NoticeCounts) *pb.NoticeCounts {
	return &pb.NoticeCounts{Notices: int32(c.Notices), Open: int32(c.Open), Issued: int32(c.Issued), Failed: int32(c.Failed),
		Objections: int32(c.Objections), Pending: int32(c.Pending), Upheld: int32(c.Upheld), Dismissed: int32(c.Dismissed),
		Withdrawn: int32(c.Withdrawn)}
}
