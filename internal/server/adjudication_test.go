package server_test

import (
	"context"
	"os"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

func TestAdjudicateOverGRPC(t *testing.T) {
	e := newEnv(t)
	client := pb.NewAdjudicationServiceClient(e.conn)
	ctx := context.Background()
	// A real game with dead stones from the rules corpus.
	sgf, err := os.ReadFile("../../rules/testdata/corpus/games/dead-stones/gnugo-dublin2.sgf")
	if err != nil {
		t.Fatal(err)
	}
	dead := []string{"be", "bg", "bj", "cd", "cj", "ck", "dc", "dg", "di", "dn", "eh", "en", "fn", "gj", "ib", "ic", "jb", "ni",
		"ob", "pb", "pc", "pd", "pf", "qe", "qf", "qg", "qh", "qi", "re", "ri"}
	resp, err := client.Adjudicate(ctx, &pb.AdjudicateRequest{Sgf: sgf, Dead: dead, File: "dublin2.sgf"})
	if err != nil {
		t.Fatal(err)
	}
	g := resp.GetGames()[0]
	if g.GetWinner() != "W" || g.GetMarginPoints() != -29.5 || g.GetResult() != "W+29.5" || g.GetEnd() != "passes" || g.GetFile() != "dublin2.sgf" {
		t.Fatalf("result %v", g)
	}
	illegal, err := os.ReadFile("../../rules/testdata/corpus/edge/real/ogs_26825028.sgf")
	if err != nil {
		t.Fatal(err)
	}
	resp, err = client.Adjudicate(ctx, &pb.AdjudicateRequest{Sgf: illegal, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if g := resp.GetGames()[0]; g.GetEnd() != "illegal" || g.GetIllegalMoves()[0].GetMove() != 101 || g.GetIllegalMoves()[0].GetReason() != "superko" {
		t.Fatalf("strict: %v", g)
	}

	bad := []*pb.AdjudicateRequest{
		{Sgf: []byte("(;SZ[9];B[ee]")},
		{},
		{Sgf: sgf, Rules: "klingon"},
		{Sgf: sgf, Dead: []string{"Z99"}},
	}
	for _, req := range bad {
		_, err := client.Adjudicate(ctx, req)
		if status.Code(err) != codes.InvalidArgument {
			t.Errorf("Adjudicate(%q, rules=%q, dead=%v) = %v, want InvalidArgument", req.GetSgf(), req.GetRules(), req.GetDead(), err)
		}
	}
}
