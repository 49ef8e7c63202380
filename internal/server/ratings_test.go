package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dankyu/dankyu/internal/eventratings"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/proposals"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/ratings"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/tournaments"
)

// TestRatingService reads ratings over a real gRPC connection: a finished
// event's player with his history and estimate, the lists by province and
// rank with paging, the refusals, and the staff-only recompute.
func TestRatingService(t *testing.T) {
	e := newEnv(t)
	ts := tournaments.New(e.store, e.reg, proposals.Certs{Certs: e.cs}, tournaments.WithRater(eventratings.Book{Book: book.New(e.store)}))
	var entrants []tournaments.ParticipantInput
	for i, r := range []string{"2d", "1d", "1k"} {
		p := fixture.Player(t, e.reg, "110", []string{"甲", "乙", "丙"}[i]+"棋手", r, "1990-01-01", i)
		entrants = append(entrants, tournaments.ParticipantInput{PlayerID: p.ID})
	}
	sh := fixture.Player(t, e.reg, "310", "上海棋手", "1k", "1991-01-01", 9)
	entrants = append(entrants, tournaments.ParticipantInput{PlayerID: sh.ID})
	ev := fixture.RoundRobin(t, ts, "等级分赛", "2026-11-07", entrants, fixture.LowerWins)

	rs := pb.NewRatingServiceClient(e.conn)
	got, err := rs.GetPlayerRating(e.as(""), &pb.GetPlayerRatingRequest{PlayerId: entrants[0].PlayerID})
	if err != nil {
		t.Fatal(err)
	}
	r := got.GetRating()
	if r.GetGames() != 3 || len(r.GetHistory()) != 1 || r.GetHistory()[0].GetTournamentId() != ev || r.GetHistory()[0].GetComputedBy() != "incremental" ||
		r.GetRating() <= 2200 || r.GetEstimate().GetRank() == "" || r.GetProvince() != "11" || r.GetHistory()[0].GetDate() != "2026-11-07" {
		t.Fatalf("rating: %v", r)
	}
	if _, err := rs.GetPlayerRating(e.as(""), &pb.GetPlayerRatingRequest{PlayerId: 424242}); status.Code(err) != codes.NotFound {
		t.Fatalf("an unrated player: %v", err)
	}

	tests := []struct {
		name     string
		req      *pb.ListRatingsRequest
		n        int
		code     codes.Code
		nextPage bool
	}{
		{"everyone", &pb.ListRatingsRequest{}, 4, codes.OK, false},
		{"Beijing", &pb.ListRatingsRequest{Province: "11"}, 3, codes.OK, false},
		{"Shanghai", &pb.ListRatingsRequest{Province: "31"}, 1, codes.OK, false},
		{"a page of two", &pb.ListRatingsRequest{PageSize: 2}, 2, codes.OK, true},
		{"no such province", &pb.ListRatingsRequest{Province: "99"}, 0, codes.InvalidArgument, false},
		{"no such rank", &pb.ListRatingsRequest{Rank: "12d"}, 0, codes.InvalidArgument, false},
		{"a bad page token", &pb.ListRatingsRequest{PageToken: "x"}, 0, codes.InvalidArgument, false},
	}
	for _, tt := range tests {
		res, err := rs.ListRatings(e.as(""), tt.req)
		if status.Code(err) != tt.code || len(res.GetRatings()) != tt.n || (res.GetNextPageToken() != "") != tt.nextPage {
			t.Errorf("%s: %d ratings, next %q, %v", tt.name, len(res.GetRatings()), res.GetNextPageToken(), err)
		}
	}
	first, _ := rs.ListRatings(e.as(""), &pb.ListRatingsRequest{PageSize: 2})
	second, err := rs.ListRatings(e.as(""), &pb.ListRatingsRequest{PageSize: 2, PageToken: first.GetNextPageToken()})
	if err != nil || len(second.GetRatings()) != 2 || second.GetRatings()[0].GetRating() > first.GetRatings()[1].GetRating() {
		t.Fatalf("second page: %v, %v", second, err)
	}
	// the estimate's rank filter finds the leader under his own grade
	lead := first.GetRatings()[0]
	byRank, err := rs.ListRatings(e.as(""), &pb.ListRatingsRequest{Rank: lead.GetEstimate().GetRank()})
	if err != nil || len(byRank.GetRatings()) == 0 || byRank.GetRatings()[0].GetRatingId() != lead.GetRatingId() {
		t.Fatalf("list of %s: %v, %v", lead.GetEstimate().GetRank(), byRank, err)
	}

	if _, err := rs.Recompute(e.as(e.bj), &pb.RecomputeRequest{}); status.Code(err) != codes.PermissionDenied {
		t.Fatalf("an agency recomputing: %v", err)
	}
	if _, err := rs.Recompute(e.as(""), &pb.RecomputeRequest{}); status.Code(err) != codes.Unauthenticated {
		t.Fatalf("the public recomputing: %v", err)
	}
	run, err := rs.Recompute(e.as(e.staff, "idempotency-key", "rc-1"), &pb.RecomputeRequest{})
	if err != nil || run.GetRun().GetEvents() != 1 || run.GetRun().GetPlayers() != 4 || run.GetRun().GetKind() != "recompute" {
		t.Fatalf("recompute: %v, %v", run, err)
	}
	again, err := rs.Recompute(e.as(e.staff, "idempotency-key", "rc-1"), &pb.RecomputeRequest{})
	if err != nil || again.GetRun().GetId() != run.GetRun().GetId() {
		t.Fatalf("retried recompute: %v, %v", again, err)
	}
	after, err := rs.GetPlayerRating(e.as(""), &pb.GetPlayerRatingRequest{PlayerId: entrants[0].PlayerID})
	if err != nil || after.GetRating().GetHistory()[0].GetComputedBy() != "recompute" || after.GetRating().GetRating() != r.GetRating() {
		t.Fatalf("after the recompute: %v, %v", after, err)
	}
}

// TestRatingParamsOverGRPC tunes the registry's rating parameters over a
// real gRPC connection: an agency and the public are refused (tuning and
// reading the versions), staff tune, a retry with the same idempotency
// key returns the same version, the version is stored and listed, the
// tuning is logged, and the recompute that followed rated with it.
func TestRatingParamsOverGRPC(t *testing.T) {
	e := newEnv(t)
	ts := tournaments.New(e.store, e.reg, proposals.Certs{Certs: e.cs}, tournaments.WithRater(eventratings.Book{Book: book.New(e.store)}))
	var entrants []tournaments.ParticipantInput
	for i, r := range []string{"3d", "2d", "1d", "2k", "4k", "6k", "8k"} {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("调校棋手%d", i+1), r, "1990-01-01", i+20)
		entrants = append(entrants, tournaments.ParticipantInput{PlayerID: p.ID})
	}
	for i, d := range []string{"2026-01-10", "2026-02-14", "2026-03-21", "2026-04-18"} {
		fixture.RoundRobin(t, ts, "月赛"+d, d, entrants[i%2:], fixture.LowerWins)
	}
	rs := pb.NewRatingServiceClient(e.conn)
	before, err := rs.GetPlayerRating(e.as(""), &pb.GetPlayerRatingRequest{PlayerId: entrants[0].PlayerID})
	if err != nil {
		t.Fatal(err)
	}
	refusals := []struct {
		name string
		call func() error
		code codes.Code
	}{
		{"an agency tuning", func() error {
			_, err := rs.TuneRatingParams(e.as(e.bj, "idempotency-key", "tune-bj"), &pb.TuneRatingParamsRequest{Budget: 5})
			return err
		}, codes.PermissionDenied},
		{"the public tuning", func() error {
			_, err := rs.TuneRatingParams(e.as(""), &pb.TuneRatingParamsRequest{Budget: 5})
			return err
		}, codes.Unauthenticated},
		{"an agency reading the versions", func() error {
			_, err := rs.ListRatingParams(e.as(e.bj), &pb.ListRatingParamsRequest{})
			return err
		}, codes.PermissionDenied},
		{"the public reading the versions", func() error {
			_, err := rs.ListRatingParams(e.as(""), &pb.ListRatingParamsRequest{})
			return err
		}, codes.Unauthenticated},
		{"a fraction of 1.5", func() error {
			_, err := rs.TuneRatingParams(e.as(e.staff, "idempotency-key", "tune-bad"), &pb.TuneRatingParamsRequest{EvalFrac: 1.5, Budget: 5})
			return err
		}, codes.InvalidArgument},
		{"a budget of 501", func() error {
			_, err := rs.TuneRatingParams(e.as(e.staff, "idempotency-key", "tune-big"), &pb.TuneRatingParamsRequest{Budget: 501})
			return err
		}, codes.InvalidArgument},
	}
	for _, tt := range refusals {
		if err := tt.call(); status.Code(err) != tt.code {
			t.Errorf("%s: %v, want %s", tt.name, err, tt.code)
		}
	}
	if n := ratingParamsEvents(t, e, "ratings.tuned"); n != 0 {
		t.Fatalf("%d tunings logged after refusals", n)
	}
	got, err := rs.TuneRatingParams(e.as(e.staff, "idempotency-key", "tune-1"), &pb.TuneRatingParamsRequest{EvalFrac: 0.3, Budget: 20})
	if err != nil {
		t.Fatal(err)
	}
	p := got.GetParams()
	if p.GetVersion() != 1 || p.GetTrainGames()+p.GetEvalGames() != 72 || !(p.GetTunedLogLoss() > 0) || !(p.GetDefaultLogLoss() > 0) || p.GetTunedBy() == "" {
		t.Fatalf("tuned: %v", p)
	}
	again, err := rs.TuneRatingParams(e.as(e.staff, "idempotency-key", "tune-1"), &pb.TuneRatingParamsRequest{EvalFrac: 0.3, Budget: 20})
	if err != nil || again.GetParams().GetVersion() != 1 {
		t.Fatalf("retried tuning: %v, %v", again, err)
	}
	list, err := rs.ListRatingParams(e.as(e.staff), &pb.ListRatingParamsRequest{})
	if err != nil || len(list.GetVersions()) != 1 || list.GetVersions()[0].GetWidth() != p.GetWidth() || list.GetVersions()[0].GetSd0() != p.GetSd0() {
		t.Fatalf("versions: %v, %v", list, err)
	}
	if n := ratingParamsEvents(t, e, "ratings.tuned"); n != 1 {
		t.Fatalf("%d tunings logged, want 1", n)
	}
	// over plain HTTP/JSON: the same versions for staff, the same refusal for an agency
	api := e.httpAPI(t) + "/api"
	code, body := call(t, "GET", api+"/v1/ratings/params", nil, "Authorization", "Bearer "+e.staff)
	var viaHTTP pb.ListRatingParamsResponse
	answer(t, "versions over HTTP", code, body, &viaHTTP)
	if len(viaHTTP.GetVersions()) != 1 || viaHTTP.GetVersions()[0].GetVersion() != 1 || viaHTTP.GetVersions()[0].GetWidth() != p.GetWidth() {
		t.Fatalf("versions over HTTP: %v", &viaHTTP)
	}
	_, grpcErr := rs.TuneRatingParams(e.as(e.bj, "idempotency-key", "tune-bj-2"), &pb.TuneRatingParamsRequest{Budget: 5})
	code, body = call(t, "POST", api+"/v1/ratings/params:tune", `{"budget":5}`, "Authorization", "Bearer "+e.bj, "Idempotency-Key", "tune-bj-http")
	sameRefusal(t, "an agency tuning over HTTP", grpcErr, code, body)
	// the book rated everyone again with the new version
	var raw []byte
	if err := e.store.DB().QueryRow(context.Background(), `SELECT params FROM rating_runs WHERE kind = 'recompute' ORDER BY id DESC LIMIT 1`).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	var used ratings.BayesParams
	if err := json.Unmarshal(raw, &used); err != nil || used.Width != p.GetWidth() || used.SD0 != p.GetSd0() || used.Learn != p.GetLearn() {
		t.Fatalf("recomputed with %s, tuned %v", raw, p)
	}
	after, err := rs.GetPlayerRating(e.as(""), &pb.GetPlayerRatingRequest{PlayerId: entrants[0].PlayerID})
	if err != nil || after.GetRating().GetHistory()[0].GetComputedBy() != "recompute" {
		t.Fatalf("after tuning: %v, %v", after, err)
	}
	tuned := used != ratings.DefaultBayes()
	if tuned == (after.GetRating().GetRating() == before.GetRating().GetRating()) {
		t.Errorf("tuned parameters chosen %v, rating %v before, %v after", tuned, before.GetRating().GetRating(), after.GetRating().GetRating())
	}
}

func ratingParamsEvents(t *testing.T, e *env, action string) int {
	t.Helper()
	var n int
	if err := e.store.DB().QueryRow(context.Background(), `SELECT count(*) FROM events WHERE action = $1`, action).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
