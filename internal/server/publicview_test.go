package server_test

import (
	"context"
	"testing"

	"github.com/dankyu/dankyu/internal/fixture"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// TestWhatThePublicSees walks the public RPCs for three players: an adult
// with a declared 3d, a player whose uncertified 5d was stored before ranks
// needed certificates (now a declared rank, under review), and a minor. No
// uncertified rank reads as a rank, a declared rank is never searched as
// one, and the public learns nothing of a minor but name, rank and province.
func TestWhatThePublicSees(t *testing.T) {
	e := newEnv(t) // 2026-11-30
	ctx := context.Background()
	adult := fixture.Player(t, e.reg, "110", "成年", "3d", "1990-01-01", 1)
	legacy := fixture.Player(t, e.reg, "110", "旧五段", "", "1980-01-01", 2)
	if _, err := e.store.DB().Exec(ctx, `UPDATE players SET declared_rank = 5 WHERE id = $1`, legacy.ID); err != nil {
		t.Fatal(err)
	}
	minor := fixture.Player(t, e.reg, "110", "少年", "2k", "2012-06-01", 3)
	public := e.as("")
	for _, tt := range []struct {
		id             int64
		rank, declared string
		birthYear      int32
		gender         pb.Gender
	}{
		{adult.ID, "", "3d", 1990, pb.Gender_GENDER_MALE},
		{legacy.ID, "", "5d", 1980, pb.Gender_GENDER_MALE},
		{minor.ID, "", "2k", 0, pb.Gender_GENDER_UNSPECIFIED},
	} {
		got, err := e.client.GetPlayer(public, &pb.GetPlayerRequest{Id: tt.id})
		p := got.GetPlayer()
		if err != nil || p.GetRank() != tt.rank || p.GetDeclaredRank() != tt.declared || p.GetBirthYear() != tt.birthYear ||
			p.GetGender() != tt.gender || p.GetBirthDate() != "" {
			t.Errorf("public GetPlayer(%d) = %v, %v; want rank %q, declared %q, birth year %d, gender %v", tt.id, p, err,
				tt.rank, tt.declared, tt.birthYear, tt.gender)
		}
	}
	for _, rank := range []string{"5d", "3d", "2k"} {
		page, err := e.client.SearchPlayers(public, &pb.SearchPlayersRequest{Rank: rank})
		if err != nil || page.GetTotal() != 0 {
			t.Errorf("public search for rank %s: %v, %v; want nobody (no certificates)", rank, page, err)
		}
	}
	page, err := e.client.SearchPlayers(public, &pb.SearchPlayersRequest{ProvinceCode: "11"})
	if err != nil || page.GetTotal() != 2 {
		t.Fatalf("public search of Beijing: %v, %v; want the two adults, not the minor", page, err)
	}
	// the minor's own agency sees him in full
	own, err := e.client.GetPlayer(e.as(e.bj), &pb.GetPlayerRequest{Id: minor.ID})
	if err != nil || own.GetPlayer().GetBirthDate() != "2012-06-01" || own.GetPlayer().GetGender() != pb.Gender_GENDER_MALE {
		t.Fatalf("agency reading its minor: %v, %v", own, err)
	}
	if page, err := e.client.SearchPlayers(e.as(e.bj), &pb.SearchPlayersRequest{ProvinceCode: "11"}); err != nil || page.GetTotal() != 3 {
		t.Fatalf("agency search of its province: %v, %v; want all three", page, err)
	}
}
