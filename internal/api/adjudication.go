package api

import (
	"context"

	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/referee"
)

// AdjudicationServer serves dankyu.v1.AdjudicationService.
type AdjudicationServer struct {
	pb.UnimplementedAdjudicationServiceServer
}

// NewAdjudicationServer returns the adjudication service.
func NewAdjudicationServer() *AdjudicationServer { return &AdjudicationServer{} }

// Adjudicate replays and counts every game of the record.
func (s *AdjudicationServer) Adjudicate(ctx context.Context, req *pb.AdjudicateRequest) (*pb.AdjudicateResponse, error) {
	in := referee.Request{SGF: req.GetSgf(), File: req.GetFile(), Rules: req.GetRules(), Dead: req.GetDead(),
		Strict: req.GetStrict(), DeadFromMarkup: req.GetDeadFromMarkup()}
	if req.Komi != nil {
		k := req.GetKomi()
		in.Komi = &k
	}
	results, err := referee.Adjudicate(ctx, in)
	if err != nil {
		return nil, err
	}
	resp := &pb.AdjudicateResponse{}
	for _, r := range results {
		g := &pb.GameResult{File: r.File, Winner: r.Winner, MarginPoints: r.MarginPoints, Result: r.Result, ResultZh: r.ResultZH,
			BlackArea: r.BlackArea, WhiteArea: r.WhiteArea, Moves: int32(r.Moves), End: r.End, Unsettled: r.Unsettled,
			Rules: string(r.Rules), Komi: r.Komi, Handicap: int32(r.Handicap), Notes: r.Notes,
			HandicapCompensationPoints: r.Compensation, RecordedResult: r.RecordedResult, GameType: r.GameType,
			BlackWarnings: int32(r.BlackWarnings), WhiteWarnings: int32(r.WhiteWarnings), BothLose: r.BothLose, Cycle: r.Cycle}
		for _, im := range r.IllegalMoves {
			g.IllegalMoves = append(g.IllegalMoves, &pb.IllegalMove{Move: int32(im.Move), Reason: im.Reason})
		}
		resp.Games = append(resp.Games, g)
	}
	return resp, nil
}
