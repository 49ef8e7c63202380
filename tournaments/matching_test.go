package tournaments_test

import (
	"context"
	"errors"
	"testing"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// namesakesFile is a made h-file of a Chinese club event: three 张伟 of
// the registry (two in Beijing of different ages and ranks, one in
// Shanghai), one 张伟 without a club, a 李娜 whose only namesake lives in
// another province, a 王芳 named by her EGD PIN, and a 刘洋 with nothing
// beside his name and rank.
const namesakesFile = `; CL[C]
; EV[俱乐部赛]
; DT[2026-05-01,2026-05-01]
  1 张 伟   2D CN 北京棋院   2+/w0  0-    |
  2 张 伟   2D CN 上海       1-/b0  0-    |
  3 张 伟   5K CN 北京       4+/w0  0-    |
  4 张 伟   2D CN xxx        3-/b0  7+/w0 |
  5 李 娜   1D CN 北京       6+/w0  0-    |
  6 王 芳   3D CN xxx        5-/b0  0-    |12345678
  7 刘 洋   1D CN xxx        0-     4-/b0 |
`

// TestImportMatchesByWhoPlayersAre imports a file whose players have
// namesakes across provinces and ages: a player is matched on his own only
// by his EGD PIN or by his name with two agreeing facts; a unique name
// whose province disagrees, or with too few facts, is a proposal; nobody
// is matched to someone he is not; the clerk's confirmation is logged and
// teaches the registry nothing false.
func TestImportMatchesByWhoPlayersAre(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	adultBJ := fixture.Player(t, e.reg, "110", "张伟", "2d", "1990-03-01", 1)
	adultSH := fixture.Player(t, e.reg, "310", "张伟", "2d", "1990-03-01", 2)
	childBJ := fixture.Player(t, e.reg, "110", "张伟", "5k", "2014-06-01", 3)
	lina := fixture.Player(t, e.reg, "310", "李娜", "1d", "1985-01-01", 4)
	wangfang := fixture.Player(t, e.reg, "110", "王芳", "3d", "1995-01-01", 5)
	liuyang := fixture.Player(t, e.reg, "110", "刘洋", "1d", "1992-01-01", 6)
	if _, err := e.reg.SetExternalID(ctx, fixture.Staff, "", wangfang.ID, "egd", "12345678"); err != nil {
		t.Fatal(err)
	}
	dry, err := e.ts.ImportEvent(ctx, beijing, "", tournaments.ImportInput{Data: []byte(namesakesFile), Level: "city"})
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		status, basis string
		player        int64
		candidates    int
	}
	wants := map[int]want{
		1: {"matched", "facts", adultBJ.ID, 3},    // Beijing, 2d: the adult of Beijing, not the child nor Shanghai's
		2: {"matched", "facts", adultSH.ID, 3},    // Shanghai's
		3: {"matched", "facts", childBJ.ID, 3},    // Beijing, 5k: the child
		4: {"proposed", "", 0, 3},                 // rank alone: two namesakes agree, nobody decides
		5: {"proposed", "", 0, 1},                 // a unique name, province disagrees
		6: {"matched", "egd_pin", wangfang.ID, 1}, // her PIN
		7: {"proposed", "", 0, 1},                 // a unique name, rank alone
	}
	for _, p := range dry.Players {
		w := wants[p.Index]
		if p.Status != w.status || p.Basis != w.basis || p.PlayerID != w.player || len(p.Proposals) != w.candidates {
			t.Errorf("file player %d %s: %s/%s player %d, %d candidates; want %+v", p.Index, p.Name, p.Status, p.Basis, p.PlayerID, len(p.Proposals), w)
		}
	}
	// the proposals show the facts side by side, masked: Beijing's agency
	// sees its own minor's birth year, never a full identity number
	for _, c := range dry.Players[4].Proposals {
		if c.PlayerID != lina.ID || c.Facts["province"] != tournaments.Differs || c.Facts["rank"] != tournaments.Agrees ||
			c.ProvinceCode != "31" || c.Identity == "" || c.Identity == lina.IDNumber || c.BirthYear != 1985 {
			t.Errorf("proposal for 李娜: %+v", c)
		}
	}
	for _, c := range dry.Players[0].Proposals {
		if c.PlayerID == childBJ.ID && (c.BirthYear != 2014 || c.Facts["rank"] != tournaments.Differs) {
			t.Errorf("the child as Beijing sees him: %+v", c)
		}
	}
	shanghai := fixture.Agency("310")
	other, err := e.ts.ImportEvent(ctx, shanghai, "", tournaments.ImportInput{Data: []byte(namesakesFile), Level: "city"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range other.Players[0].Proposals {
		if c.PlayerID == childBJ.ID && (c.BirthYear != 0 || !c.Minor) {
			t.Errorf("Beijing's minor as Shanghai sees him: %+v", c)
		}
	}

	// proposals block the import until the clerk decides
	_, err = e.ts.ImportEvent(ctx, beijing, "", tournaments.ImportInput{Data: []byte(namesakesFile), Level: "city", Commit: true})
	if !errors.Is(err, ledger.ErrPrecondition) {
		t.Fatalf("commit with proposals: %v", err)
	}
	// the clerk confirms 刘洋 and 李娜 (who moved), and rejects both 张伟
	// for row 4 (a guest)
	res, err := e.ts.ImportEvent(ctx, beijing, "imp", tournaments.ImportInput{Data: []byte(namesakesFile), Level: "city", Commit: true,
		Matches: map[int]int64{5: lina.ID, 7: liuyang.ID}, Guests: []int{4}})
	if err != nil {
		t.Fatal(err)
	}
	ps, err := e.ts.Participants(ctx, res.Event.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]int64{}
	for _, p := range ps {
		got[p.Number] = p.PlayerID
	}
	if got[1] != adultBJ.ID || got[2] != adultSH.ID || got[3] != childBJ.ID || got[4] != 0 || got[5] != lina.ID || got[6] != wangfang.ID || got[7] != liuyang.ID {
		t.Fatalf("participants %v", got)
	}
	var logged tournaments.PlayersMatchedPayload
	if err := e.pool.QueryRow(ctx, `SELECT payload FROM events WHERE action = 'tournament.players_matched'`).Scan(&logged); err != nil {
		t.Fatal(err)
	}
	bases := map[int]string{}
	for _, m := range logged.Players {
		bases[m.Number] = m.Basis
		if m.Number == 7 && (len(m.Candidates) != 1 || m.Candidates[0] != liuyang.ID) {
			t.Errorf("the confirmation of 刘洋 does not name what was proposed: %+v", m)
		}
	}
	if bases[1] != "facts" || bases[5] != "confirmed" || bases[6] != "egd_pin" || bases[7] != "confirmed" || len(bases) != 6 {
		t.Errorf("logged bases %v", bases)
	}
	p, err := e.reg.GetPlayer(ctx, wangfang.ID)
	if err != nil || p.ExternalIDs["egd"] != "12345678" {
		t.Fatalf("王芳 keeps her PIN: %v %v", p.ExternalIDs, err)
	}
}

// TestImportMatchesByPinAcrossScripts: a foreign file writes a registered
// player in Latin letters with his EGD PIN; the PIN names him and the
// pinyin of his name agrees, so he is matched. The same PIN on another
// name is a proposal.
func TestImportMatchesByPinAcrossScripts(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	p := fixture.Player(t, e.reg, "110", "欧阳修", "3d", "1990-03-01", 1)
	if _, err := e.reg.SetExternalID(ctx, fixture.Staff, "", p.ID, "egd", "14825052"); err != nil {
		t.Fatal(err)
	}
	file := "; CL[A]\n  1 Ouyang Xiu  3D CN xxx  2+/w0 |14825052\n  2 Smith John  3D GB Lond  1-/b0 |14825053\n"
	dry, err := e.ts.ImportEvent(ctx, beijing, "", tournaments.ImportInput{Data: []byte(file), Level: "city"})
	if err != nil {
		t.Fatal(err)
	}
	if a := dry.Players[0]; a.Status != "matched" || a.Basis != "egd_pin" || a.PlayerID != p.ID {
		t.Fatalf("Ouyang Xiu by PIN: %+v", a)
	}
	if b := dry.Players[1]; b.Status != "unmatched" {
		t.Fatalf("Smith John: %+v", b)
	}
	wrong := "; CL[A]\n  1 Zhang San  3D CN xxx  2+/w0 |14825052\n  2 Smith John  3D GB Lond  1-/b0\n"
	dry, err = e.ts.ImportEvent(ctx, beijing, "", tournaments.ImportInput{Data: []byte(wrong), Level: "city"})
	if err != nil {
		t.Fatal(err)
	}
	if a := dry.Players[0]; a.Status != "proposed" || a.PlayerID != 0 || len(a.Proposals) != 1 || a.Proposals[0].StableID != "egd_pin" ||
		a.Proposals[0].Facts["name"] != tournaments.Differs {
		t.Fatalf("a PIN on another name: %+v", a)
	}
	_ = registry.EGDScheme
}
