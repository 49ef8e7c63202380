package api

import (
	"context"
	"strconv"

	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/ratings"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
)

// RatingServer serves dankyu.v1.RatingService.
type RatingServer struct {
	pb.UnimplementedRatingServiceServer
	book *book.Book
}

// NewRatingServer serves the ratings of b.
func NewRatingServer(b *book.Book) *RatingServer { return &RatingServer{book: b} }

func (s *RatingServer) GetPlayerRating(ctx context.Context, req *pb.GetPlayerRatingRequest) (*pb.GetPlayerRatingResponse, error) {
	r, err := s.book.PlayerRating(ctx, req.GetPlayerId())
	if err != nil {
		return nil, err
	}
	return &pb.GetPlayerRatingResponse{Rating: ratingPB(r)}, nil
}

func (s *RatingServer) ListRatings(ctx context.Context, req *pb.ListRatingsRequest) (*pb.ListRatingsResponse, error) {
	offset := 0
	if t := req.GetPageToken(); t != "" {
		n, err := strconv.Atoi(t)
		if err != nil || n < 0 || n > book.MaxOffset {
			return nil, registry.ReasonPageToken.OnField("page_token")
		}
		offset = n
	}
	size := int(req.GetPageSize())
	if size <= 0 || size > book.MaxList {
		size = book.MaxList
	}
	// one more than asked tells whether a next page exists
	rs, err := s.book.ListRatings(ctx, book.ListQuery{Province: req.GetProvince(), Rank: req.GetRank(), Limit: size + 1, Offset: offset})
	if err != nil {
		return nil, err
	}
	out := &pb.ListRatingsResponse{}
	if len(rs) > size {
		rs = rs[:size]
		out.NextPageToken = strconv.Itoa(offset + size)
	}
	for _, r := range rs {
		out.Ratings = append(out.Ratings, ratingPB(r))
	}
	return out, nil
}

func (s *RatingServer) Recompute(ctx context.Context, _ *pb.RecomputeRequest) (*pb.RecomputeResponse, error) {
	run, err := s.book.Recompute(ctx, ActorFrom(ctx), idempotencyKey(ctx))
	if err != nil {
		return nil, err
	}
	return &pb.RecomputeResponse{Run: &pb.RatingRun{Id: run.ID, Kind: run.Kind, Events: int32(run.Events), Games: int32(run.Games),
		Players: int32(run.Players), RunAt: timestamppb.New(run.At), RunBy: run.By}}, nil
}

func estimatePB(e ratings.Estimate) *pb.RankEstimate {
	return &pb.RankEstimate{Rank: ratings.RankName(e.Rank), Low: ratings.RankName(e.Low), High: ratings.RankName(e.High)}
}

func ratingPB(r book.Rating) *pb.PlayerRating {
	out := &pb.PlayerRating{RatingId: r.RatingID, PlayerId: r.PlayerID, Name: r.Name, Country: r.Country, EgdPin: r.EGDPin,
		Province: r.Province, Rating: r.Rating, Sd: r.SD, Games: int32(r.Games), Estimate: estimatePB(r.Estimate),
		UpdatedAt: timestamppb.New(r.UpdatedAt)}
	for _, p := range r.History {
		out.History = append(out.History, &pb.RatingPoint{TournamentId: p.Tournament, EventName: p.EventName,
			Date: p.Date.Format("2006-01-02"), Rating: p.Rating, Sd: p.SD, Games: int32(p.Games), Wins: p.Wins,
			ComputedBy: p.ComputedBy, Estimate: estimatePB(p.Estimate)})
	}
	return out
}

// Defaults of a tuning request's zero fields: the portal's form's.
const (
	defaultTuneFrac   = 0.3
	defaultTuneBudget = 150
)

func (s *RatingServer) TuneRatingParams(ctx context.Context, req *pb.TuneRatingParamsRequest) (*pb.TuneRatingParamsResponse, error) {
	frac, budget := req.GetEvalFrac(), int(req.GetBudget())
	if frac == 0 {
		frac = defaultTuneFrac
	}
	if budget == 0 {
		budget = defaultTuneBudget
	}
	p, err := s.book.Tune(ctx, ActorFrom(ctx), idempotencyKey(ctx), book.TuneRequest{EvalFrac: frac, Budget: budget})
	if err != nil {
		return nil, err
	}
	return &pb.TuneRatingParamsResponse{Params: ratingParamsPB(p)}, nil
}

func (s *RatingServer) ListRatingParams(ctx context.Context, req *pb.ListRatingParamsRequest) (*pb.ListRatingParamsResponse, error) {
	size := int(req.GetPageSize())
	if size <= 0 || size > book.MaxParamVersions {
		size = book.MaxParamVersions
	}
	ps, err := s.book.ParamVersions(ctx, ActorFrom(ctx), size)
	if err != nil {
		return nil, err
	}
	out := &pb.ListRatingParamsResponse{}
	for _, p := range ps {
		out.Versions = append(out.Versions, ratingParamsPB(p))
	}
	return out, nil
}

func ratingParamsPB(p book.Params) *pb.RatingParams {
	b := p.Bayes
	return &pb.RatingParams{Version: p.Version, Sd0: b.SD0, Drift: b.Drift, Play: b.Play, RankSd: b.RankSD, Width: b.Width,
		Span: b.Span, Learn: b.Learn, Kyu: b.Kyu, TrainGames: int32(p.TrainGames), EvalGames: int32(p.EvalGames),
		DefaultLogLoss: p.DefaultLogLoss, TunedLogLoss: p.TunedLogLoss, RankOnlyLogLoss: p.RankOnlyLogLoss,
		TunedAt: timestamppb.New(p.At), TunedBy: p.By}
}
