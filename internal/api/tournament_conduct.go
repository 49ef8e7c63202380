package api

import (
	"context"

	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/tournaments"
)

// The event's supplementary rules, adjournments and lateness (issue 26).

func conductIn(c *pb.TournamentConduct) *tournaments.ConductInput {
	if c == nil {
		return nil
	}
	return &tournaments.ConductInput{BasicMinutes: int(c.GetBasicMinutes()), Method: c.GetTimeMethod(),
		ByoyomiPeriods: int(c.GetByoyomiPeriods()), ByoyomiSeconds: int(c.GetByoyomiSeconds()), ByoyomiKeptMinutes: int(c.GetByoyomiKeptMinutes()),
		PeriodMoves: int(c.GetPeriodMoves()), PeriodMinutes: int(c.GetPeriodMinutes()), Lateness: c.GetLateness(), Sealing: c.GetSealing(),
		Cycle: c.GetCycleOutcome(), Document: c.GetDocument()}
}

func conductPB(c *tournaments.Conduct) *pb.TournamentConduct {
	if c == nil {
		return nil
	}
	return &pb.TournamentConduct{BasicMinutes: int32(c.BasicMinutes), TimeMethod: string(c.Method),
		ByoyomiPeriods: int32(c.ByoyomiPeriods), ByoyomiSeconds: int32(c.ByoyomiSeconds), ByoyomiKeptMinutes: int32(c.ByoyomiKeptMinutes),
		PeriodMoves: int32(c.PeriodMoves), PeriodMinutes: int32(c.PeriodMinutes), Lateness: string(c.Lateness),
		LatenessLimitMinutes: int32(c.Lateness.Minutes()), Sealing: string(c.Sealing), CycleOutcome: string(c.Cycle),
		Document: c.Document, SetAt: ts(c.SetAt)}
}

func adjournmentPB(a tournaments.Adjournment) *pb.TournamentAdjournment {
	return &pb.TournamentAdjournment{Round: int32(a.Round), Board: int32(a.Board), Seq: int32(a.Seq), SealedBy: a.SealedBy,
		Point: a.Point, MoveNumber: int32(a.MoveNumber), CountsAsPass: a.CountsAsPass, SealedAt: ts(a.SealedAt)}
}

func latenessPB(l tournaments.Lateness) *pb.TournamentLateness {
	return &pb.TournamentLateness{Round: int32(l.Round), Board: int32(l.Board), Side: l.Side, Minutes: int32(l.Minutes),
		DeductedMinutes: int32(l.DeductedMinutes)}
}

// conductReportPB fills a GetTournament answer's supplementary rules and
// what was recorded under them.
func conductReportPB(resp *pb.GetTournamentResponse, r tournaments.Report) {
	resp.Conduct = conductPB(r.Conduct)
	for _, a := range r.Adjournments {
		resp.Adjournments = append(resp.Adjournments, adjournmentPB(a))
	}
	for _, l := range r.Latenesses {
		resp.Latenesses = append(resp.Latenesses, latenessPB(l))
	}
}

// SetTournamentConduct sets an event's supplementary rules before it starts.
func (s *TournamentServer) SetTournamentConduct(ctx context.Context, req *pb.SetTournamentConductRequest) (*pb.SetTournamentConductResponse, error) {
	in := conductIn(req.GetConduct())
	if in == nil {
		in = &tournaments.ConductInput{}
	}
	c, err := s.ts.SetConduct(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId(), *in)
	if err != nil {
		return nil, err
	}
	return &pb.SetTournamentConductResponse{Conduct: conductPB(&c)}, nil
}

// RecordTournamentAdjournment records an adjournment with its sealed move.
func (s *TournamentServer) RecordTournamentAdjournment(ctx context.Context, req *pb.RecordTournamentAdjournmentRequest) (*pb.RecordTournamentAdjournmentResponse, error) {
	a, err := s.ts.RecordAdjournment(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId(), tournaments.AdjournmentInput{
		Round: int(req.GetRound()), Board: int(req.GetBoard()), SealedBy: req.GetSealedBy(), Point: req.GetPoint(), Record: req.GetRecord()})
	if err != nil {
		return nil, err
	}
	return &pb.RecordTournamentAdjournmentResponse{Adjournment: adjournmentPB(a)}, nil
}

// RecordTournamentLateness records a lateness within the limit.
func (s *TournamentServer) RecordTournamentLateness(ctx context.Context, req *pb.RecordTournamentLatenessRequest) (*pb.RecordTournamentLatenessResponse, error) {
	l, err := s.ts.RecordLateness(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId(), tournaments.LatenessInput{
		Round: int(req.GetRound()), Board: int(req.GetBoard()), Side: req.GetSide(), Minutes: int(req.GetMinutes())})
	if err != nil {
		return nil, err
	}
	return &pb.RecordTournamentLatenessResponse{Lateness: latenessPB(l)}, nil
}
