package audit_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// roundRobin holds a round robin of players for agency on day, each game's
// result (and record) given by play(black, white) over the players'
// indexes; it returns the event.
func (e *env) roundRobin(t *testing.T, agency, name, day string, players []registry.Player, guests int,
	play func(r, board int, black, white int) (string, string)) tournaments.Event {
	t.Helper()
	ctx := context.Background()
	actor := fixture.Agency(agency)
	e.at(t, day)
	ev, err := e.ts.CreateEvent(ctx, actor, "", tournaments.EventInput{Name: name, Start: day, End: day, Level: "city", System: "round_robin"})
	if err != nil {
		t.Fatal(err)
	}
	index := map[int]int{} // participant number → player index (-1: a guest)
	for i, p := range players {
		pt, err := e.ts.AddParticipant(ctx, actor, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID})
		if err != nil {
			t.Fatal(err)
		}
		index[pt.Number] = i
	}
	for i := range guests {
		pt, err := e.ts.AddParticipant(ctx, actor, "", ev.ID, tournaments.ParticipantInput{GuestName: fmt.Sprintf("%s客%d", name, i), GuestRank: "1k"})
		if err != nil {
			t.Fatal(err)
		}
		index[pt.Number] = -1
	}
	for r := 1; ; r++ {
		ri, err := e.ts.PairNextRound(ctx, actor, "", ev.ID)
		if err != nil {
			break // every round played
		}
		for _, g := range ri.Games {
			if g.White == 0 {
				continue // a bye
			}
			res, sgf := play(r, g.Board, index[g.Black], index[g.White])
			if _, err := e.ts.RecordResult(ctx, actor, "", ev.ID, tournaments.ResultInput{Round: r, Board: g.Board, Result: res, SGF: sgf}); err != nil {
				t.Fatalf("%s round %d board %d: %v", name, r, g.Board, err)
			}
		}
	}
	return ev
}

func players(t *testing.T, e *env, agency, prefix string, ranks []string, seq int) []registry.Player {
	t.Helper()
	var out []registry.Player
	for i, r := range ranks {
		out = append(out, fixture.Player(t, e.reg, agency, fmt.Sprintf("%s%d", prefix, i), r, "1990-01-01", seq+i))
	}
	return out
}

func openAndRead(t *testing.T, e *env, agencies ...string) map[string]audit.Audit {
	t.Helper()
	ctx := context.Background()
	e.at(t, "2026-12-03")
	if _, err := e.au.OpenYear(ctx, staff, "", 2026); err != nil {
		t.Fatal(err)
	}
	out := map[string]audit.Audit{}
	for _, a := range agencies {
		x, err := e.au.Audit(ctx, staff, a, 2026)
		if err != nil {
			t.Fatal(err)
		}
		out[a] = x
	}
	return out
}

// TestGradeSkipsFromTheBestRankKnown: a first certificate one grade above
// the declared rank is no skip (1 kyu → 1 dan, 2 dan → 3 dan), none or kyu
// to 3 dan is, and so is a raise of the declared rank shortly before the
// certificate. Planted at size on one agency (no other agency skips, so
// the pooled comparison expects none) it is red on the standalone test;
// the same pattern small is green, and ordinary first certificates are
// green however many.
func TestGradeSkipsFromTheBestRankKnown(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name     string
		declared []string // one player each, certified 3 dan unless ordinary
		ordinary bool     // certified one grade above the declared rank
		raise    bool     // declared 1 kyu, raised to 2 dan ten days before
		skips    int64
		mark     audit.Mark
	}{
		{"ordinary first certificates", []string{"1k", "1k", "2d", "2d", "1d", "1k", "2d", "1k", "2d", "1d", "1k", "2d"}, true, false, 0, audit.Green},
		{"none and kyu to 3 dan at size", []string{"", "", "", "5k", "5k", "1k", "", "", "", "10k", "", ""}, false, false, 12, audit.Red},
		{"none to 3 dan, small", []string{"", "5k"}, false, false, 2, audit.Green},
		{"declared rank raised just before", []string{"1k", "1k", "1k", "1k", "1k", "1k", "1k", "1k", "1k", "1k", "1k"}, false, true, 11, audit.Red},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			fixture.Bootstrap(t, e.au, 2026, "110", "310")
			fixture.Stock(t, e.cs, "110", 2026, 100, 100)
			fixture.Stock(t, e.cs, "310", 2026, 100, 100)
			e.at(t, "2026-03-01")
			ps := players(t, e, "110", "跳", tt.declared, 600)
			sh := players(t, e, "310", "沪常", []string{"1k", "1k", "1k", "1k", "1k", "1k"}, 700)
			if tt.raise {
				e.at(t, "2026-04-20")
				for _, p := range ps {
					if _, err := e.reg.UpdatePlayer(ctx, beijing, "", p.ID, registry.PlayerInput{Name: p.Name, Gender: p.Gender, BirthDate: "1990-01-01",
						IDKind: p.IDKind, IDNumber: p.IDNumber, ProvinceCode: p.ProvinceCode, Rank: "2d"}); err != nil {
						t.Fatal(err)
					}
				}
			}
			e.at(t, "2026-05-01")
			for i, p := range ps {
				target := "3d"
				if tt.ordinary {
					target = map[string]string{"1k": "1d", "1d": "2d", "2d": "3d"}[tt.declared[i]]
				}
				e.certify(t, beijing, certs.ApplicationInput{PlayerID: p.ID, TargetRank: target, Basis: "tournament", EventID: fixture.Earned(t, e.ts, target, p.ID)})
			}
			for _, p := range sh {
				e.certify(t, fixture.Agency("310"), certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1d", p.ID)})
			}
			as := openAndRead(t, e, "110", "310")
			in := indicator(t, as["110"], audit.KeyGradeSkips)
			if in.Count != tt.skips || in.Mark != tt.mark {
				t.Errorf("Beijing's grade skips: %d %s, want %d %s", in.Count, in.Mark, tt.skips, tt.mark)
			}
			if in := indicator(t, as["310"], audit.KeyGradeSkips); in.Count != 0 || in.Mark != audit.Green {
				t.Errorf("Shanghai's grade skips: %d %s, want 0 green", in.Count, in.Mark)
			}
			if tt.skips > 0 {
				items, err := e.au.IndicatorItems(ctx, staff, "110", 2026, audit.KeyGradeSkips)
				if err != nil || int64(len(items)) != tt.skips || !strings.Contains(items[0].Note, "→ 3d") {
					t.Fatalf("items: %+v %v", items, err)
				}
			}
		})
	}
}

// TestResultsAgainstRatings: a closed group of eight players of very
// different declared ranks meets in two round robins; when every pair
// splits its two games (the 3 dan losing half his games to 10 kyu players)
// the results are far more even than the ranks predict, and the organiser
// is red; when the stronger player wins, as the ranks predict, or only
// three players arrange their games, it is not.
func TestResultsAgainstRatings(t *testing.T) {
	ctx := context.Background()
	eight := []string{"3d", "3d", "1d", "1k", "3k", "5k", "8k", "10k"}
	for _, tt := range []struct {
		name    string
		ranks   []string
		even    bool
		atLeast int64
		mark    audit.Mark
	}{
		{"eight players trading wins", eight, true, 4, audit.Red},
		{"eight players, results as the ranks say", eight, false, 0, audit.Green},
		{"three players trading wins", []string{"3d", "5k", "10k"}, true, 0, audit.Green},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			fixture.Bootstrap(t, e.au, 2026, "110", "310")
			group := players(t, e, "310", "圈", tt.ranks, 800)
			for n, day := range []string{"2026-04-01", "2026-07-01"} {
				e.roundRobin(t, "310", fmt.Sprintf("沪圈赛%d", n), day, group, 0, func(_, _ int, black, white int) (string, string) {
					stronger := "black" // ranks descend with the index
					if white < black {
						stronger = "white"
					}
					weaker := map[string]string{"black": "white", "white": "black"}[stronger]
					if tt.even && n == 1 {
						return weaker, ""
					}
					return stronger, ""
				})
			}
			as := openAndRead(t, e, "310", "110")
			in := indicator(t, as["310"], audit.KeyResultsAgainstRatings)
			if in.Count < tt.atLeast || in.Mark != tt.mark || (tt.atLeast == 0 && in.Count > 2) {
				t.Errorf("results against ratings: %d of %d (expected %.3g) %s, want at least %d, %s", in.Count, in.Base, in.Median, in.Mark, tt.atLeast, tt.mark)
			}
			if tt.mark == audit.Red {
				items, err := e.au.IndicatorItems(ctx, staff, "310", 2026, audit.KeyResultsAgainstRatings)
				if err != nil || int64(len(items)) != in.Count || items[0].Kind != "player" || !strings.Contains(items[0].Note, "ratings expect") {
					t.Fatalf("items: %+v %v", items, err)
				}
			}
			v, err := e.au.VerifyYear(ctx, staff, 2026)
			if err != nil || len(v.Differences) != 0 {
				t.Fatalf("verify: %+v %v", v.Differences, err)
			}
		})
	}
}

// record is a legal game of 76 moves on four rows (no capture), the rows
// chosen by rows, turned by turn (x, y → x', y'), the colours swapped when
// swap, and the moves at the indexes of changed moved to row 'j'.
func record(rows [4]byte, turn func(x, y byte) (byte, byte), swap bool, changed ...int) (string, string) {
	var sb strings.Builder
	result, res := "B+R", "black"
	if swap {
		result, res = "W+R", "white"
	}
	sb.WriteString("(;GM[1]FF[4]SZ[19]KM[7.5]RU[Chinese]RE[" + result + "]")
	n := 0
	for half := range 2 {
		for x := range byte(19) {
			for c := range 2 {
				colour := "BW"[c]
				if swap {
					colour = "WB"[c]
				}
				px, py := 'a'+x, rows[2*half+c]
				for _, ch := range changed {
					if ch == n {
						py = 'j'
					}
				}
				if turn != nil {
					px, py = turn(px, py)
				}
				fmt.Fprintf(&sb, ";%c[%c%c]", colour, px, py)
				n++
			}
		}
	}
	return sb.String() + ")", res
}

// TestCopiedRecords: records repeating another game's after turning the
// board, mirroring it or swapping the colours count as the same record;
// near copies (a few moves changed) count too; different games do not.
func TestCopiedRecords(t *testing.T) {
	ctx := context.Background()
	base := [4]byte{'c', 'q', 'e', 'o'}
	rot := func(x, y byte) (byte, byte) { return 's' - (y - 'a'), x } // 90°
	mirror := func(x, y byte) (byte, byte) { return 's' - (x - 'a'), y }
	type rec struct {
		turn    func(x, y byte) (byte, byte)
		swap    bool
		rows    [4]byte
		changed []int
	}
	for _, tt := range []struct {
		name            string
		records         []rec
		identical, near int64
		markI, markN    audit.Mark
	}{
		{"turned, mirrored and colour-swapped copies", []rec{{rows: base}, {turn: rot, rows: base}, {turn: mirror, rows: base}, {swap: true, rows: base}, {turn: rot, swap: true, rows: base}},
			4, 0, audit.Red, audit.Green},
		{"near copies", []rec{{rows: base}, {rows: base, changed: []int{40, 43, 60}}, {turn: mirror, rows: base, changed: []int{10, 50}}, {turn: rot, rows: base, changed: []int{70}}, {rows: base, swap: true, changed: []int{5, 8, 11}}},
			0, 4, audit.Green, audit.Red},
		{"one copy", []rec{{rows: base}, {turn: rot, rows: base}, {rows: [4]byte{'d', 'p', 'f', 'n'}}}, 1, 0, audit.Amber, audit.Green},
		{"different games", []rec{{rows: base}, {rows: [4]byte{'d', 'p', 'f', 'n'}}, {rows: [4]byte{'b', 'r', 'g', 'm'}}, {rows: [4]byte{'c', 'p', 'e', 'n'}}}, 0, 0, audit.Green, audit.Green},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			fixture.Bootstrap(t, e.au, 2026, "110", "310")
			ps := players(t, e, "110", "谱", []string{"1k", "1k", "1k", "1k", "1k", "1k", "1k", "1k", "1k", "1k"}, 900)
			next := 0
			e.roundRobin(t, "110", "京谱赛", "2026-04-01", ps, 0, func(_, _ int, _, _ int) (string, string) {
				if next >= len(tt.records) {
					return "black", ""
				}
				r := tt.records[next]
				next++
				sgf, res := record(r.rows, r.turn, r.swap, r.changed...)
				return res, sgf
			})
			as := openAndRead(t, e, "110")
			in, near := indicator(t, as["110"], audit.KeyIdenticalMoves), indicator(t, as["110"], audit.KeyNearCopies)
			if in.Count != tt.identical || in.Mark != tt.markI || near.Count != tt.near || near.Mark != tt.markN {
				t.Errorf("identical %d %s, near %d %s; want %d %s, %d %s", in.Count, in.Mark, near.Count, near.Mark, tt.identical, tt.markI, tt.near, tt.markN)
			}
			if tt.near > 0 {
				items, err := e.au.IndicatorItems(ctx, staff, "110", 2026, audit.KeyNearCopies)
				if err != nil || int64(len(items)) != tt.near || !strings.Contains(items[0].Note, "edits from") {
					t.Fatalf("items: %+v %v", items, err)
				}
			}
		})
	}
}

// TestThinQualifyingEvents: unranked players certified 3 dan on tiny
// round robins the agency runs itself (four entrants who play nowhere
// else) are counted and red at size; two such certificates are green, and
// certificates after an ordinary event of ten open entrants are not
// counted.
func TestThinQualifyingEvents(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name      string
		tiny      int // tiny events of four, two certified from each
		open      bool
		count     int64
		wantMark  audit.Mark
		wantItems string
	}{
		{"five tiny events, ten certificates", 5, false, 10, audit.Red, "4 participants"},
		{"one tiny event, two certificates", 1, false, 2, audit.Green, "4 participants"},
		{"an open event of ten", 0, true, 0, audit.Green, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			fixture.Bootstrap(t, e.au, 2026, "110", "310")
			fixture.Stock(t, e.cs, "310", 2026, 100, 100)
			fixture.Stock(t, e.cs, "110", 2026, 100, 100)
			sh := fixture.Agency("310")
			for k := range tt.tiny {
				ps := players(t, e, "310", fmt.Sprintf("小赛%d_", k), []string{"", "", "", ""}, 1000+10*k)
				e.roundRobin(t, "310", fmt.Sprintf("沪小赛%d", k), fmt.Sprintf("2026-0%d-01", 3+k), ps, 0, func(_, _ int, black, white int) (string, string) {
					if black < white {
						return "black", ""
					}
					return "white", ""
				})
				e.at(t, fmt.Sprintf("2026-0%d-11", 3+k))
				for _, p := range ps[:2] {
					e.certify(t, sh, certs.ApplicationInput{PlayerID: p.ID, TargetRank: "3d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "3d", p.ID)})
				}
			}
			if tt.open {
				ps := players(t, e, "310", "公开", []string{"1k", "1k", "1k", "1k", "1k", "1k", "1k", "1k", "1k", "1k"}, 1200)
				e.roundRobin(t, "310", "沪公开赛", "2026-03-01", ps, 0, func(_, _ int, _, _ int) (string, string) { return "black", "" })
				// the opponents play in Beijing's event too
				e.roundRobin(t, "110", "京公开赛", "2026-03-15", ps[2:], 0, func(_, _ int, _, _ int) (string, string) { return "white", "" })
				e.at(t, "2026-04-01")
				for _, p := range ps[:2] {
					e.certify(t, sh, certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1d", p.ID)})
				}
			}
			// Beijing certifies after open events of its own: the other agencies' share
			for k := range 2 {
				ps := players(t, e, "110", fmt.Sprintf("京常%d_", k), []string{"1k", "1k", "1k", "1k", "1k", "1k", "1k", "1k"}, 1300+10*k)
				e.roundRobin(t, "110", fmt.Sprintf("京常赛%d", k), "2026-08-01", ps, 0, func(_, _ int, _, _ int) (string, string) { return "black", "" })
				e.at(t, "2026-09-02")
				for _, p := range ps[:4] {
					e.certify(t, beijing, certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1d", p.ID)})
				}
			}
			as := openAndRead(t, e, "310", "110")
			in := indicator(t, as["310"], audit.KeyThinQualifying)
			if in.Count != tt.count || in.Mark != tt.wantMark {
				t.Errorf("thin qualifying events: %d of %d %s, want %d %s", in.Count, in.Base, in.Mark, tt.count, tt.wantMark)
			}
			if bj := indicator(t, as["110"], audit.KeyThinQualifying); bj.Count != 0 || bj.Base != 8 {
				t.Errorf("Beijing: %d of %d, want 0 of 8", bj.Count, bj.Base)
			}
			if tt.wantItems != "" {
				items, err := e.au.IndicatorItems(ctx, staff, "310", 2026, audit.KeyThinQualifying)
				if err != nil || int64(len(items)) != tt.count || !strings.Contains(items[0].Note, tt.wantItems) {
					t.Fatalf("items: %+v %v", items, err)
				}
			}
		})
	}
}
