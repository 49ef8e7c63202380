package api

import (
	"context"
	"errors"
	"math"

	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/rules"
)

// AdjudicationServer serves dankyu.v1.AdjudicationService.
type AdjudicationServer struct {
	pb.UnimplementedAdjudicationServiceServer
}

// NewAdjudicationServer returns the adjudication service.
func NewAdjudicationServer() *AdjudicationServer { return &AdjudicationServer{} }

// Adjudicate replays and counts every game of the record.
func (s *AdjudicationServer) Adjudicate(ctx context.Context, req *pb.AdjudicateRequest) (*pb.AdjudicateResponse, error) {
	if len(req.GetSgf()) == 0 {
		return nil, ledger.FieldErr("sgf", "is empty: send the SGF record's bytes")
	}
	if len(req.GetSgf()) > rules.MaxRecordBytes {
		return nil, ledger.FieldErr("sgf", "is %d bytes, more than the %d allowed", len(req.GetSgf()), rules.MaxRecordBytes)
	}
	rs, err := rules.ParseRuleSet(req.GetRules())
	if err != nil {
		return nil, ledger.FieldErr("rules", "%v", err)
	}
	opt := rules.Options{Rules: rs, Dead: req.GetDead(), Strict: req.GetStrict(), DeadFromMarkup: req.GetDeadFromMarkup()}
	if req.Komi != nil {
		k := req.GetKomi()
		if math.IsNaN(k) || math.IsInf(k, 0) {
			return nil, ledger.FieldErr("komi", "must be a finite number of points")
		}
		opt.Komi = &k
	}
	results, err := rules.AdjudicateSGF(req.GetSgf(), req.GetFile(), opt)
	if err != nil {
		var oe *rules.OptionError
		if errors.As(err, &oe) {
			return nil, ledger.FieldErr(oe.Option, "%v", oe.Err)
		}
		return nil, ledger.FieldErr("sgf", "%v", err)
	}
	resp := &pb.AdjudicateResponse{}
	for _, r := range results {
		g := &pb.GameResult{File: r.File, Winner: r.Winner, MarginPoints: r.MarginPoints, Result: r.Result, ResultZh: r.ResultZH,
			BlackArea: r.BlackArea, WhiteArea: r.WhiteArea, Moves: int32(r.Moves), End: r.End, Unsettled: r.Unsettled,
			Rules: string(r.Rules), Komi: r.Komi, Handicap: int32(r.Handicap), Notes: r.Notes,
			HandicapCompensationPoints: r.Compensation, RecordedResult: r.RecordedResult}
		for _, im := range r.IllegalMoves {
			g.IllegalMoves = append(g.IllegalMoves, &pb.IllegalMove{Move: int32(im.Move), Reason: im.Reason})
		}
		resp.Games = append(resp.Games, g)
	}
	return resp, nil
}
