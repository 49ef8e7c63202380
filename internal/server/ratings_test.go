package server_test

import (
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dankyu/dankyu/internal/eventratings"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/proposals"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
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
