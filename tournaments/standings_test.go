package tournaments

import (
	"strings"
	"testing"
)

func names(st []Standing) string {
	var out []string
	for _, s := range st {
		out = append(out, s.Name)
	}
	return strings.Join(out, " ")
}

func entrants(names ...string) []Entrant {
	var es []Entrant
	for i, n := range names {
		es = append(es, Entrant{ID: i + 1, Name: n})
	}
	return es
}

// TestRoundRobinWinnersScore works the spec's round-robin order on a small
// event: A beat B and C, lost to D; B beat C and drew D; C beat D.
// Points A 4, B 3, D 3, C 2; winners' score B = 2 + 3/2 = 3.5, D = 4 + 3/2 = 5.5.
func TestRoundRobinWinnersScore(t *testing.T) {
	f := Field{Entrants: entrants("A", "B", "C", "D"), Games: []Game{
		{Round: 1, Black: 1, White: 2, Result: BlackWins},
		{Round: 1, Black: 3, White: 4, Result: BlackWins},
		{Round: 2, Black: 1, White: 3, Result: BlackWins},
		{Round: 2, Black: 2, White: 4, Result: Draw},
		{Round: 3, Black: 4, White: 1, Result: BlackWins},
		{Round: 3, Black: 2, White: 3, Result: BlackWins},
	}}
	st, err := Standings(f, RoundRobinOrder)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(st); got != "A D B C" {
		t.Fatalf("order %q, want A D B C", got)
	}
	ws := map[string]int{}
	for _, s := range st {
		ws[s.Name] = s.WinnersScore2
	}
	if ws["A"] != 10 || ws["D"] != 11 || ws["B"] != 7 || ws["C"] != 6 {
		t.Fatalf("winners' scores ×2 = %v", ws)
	}
}

// TestWarningsThenLot: equal points and winners' score; fewer warnings first,
// then the lot, which depends on the seed only.
func TestWarningsThenLot(t *testing.T) {
	f := Field{Entrants: entrants("甲", "乙", "丙", "丁"), Games: []Game{
		{Round: 1, Black: 1, White: 2, Result: BlackWins, BlackWarnings: 1},
		{Round: 1, Black: 3, White: 4, Result: BlackWins},
		{Round: 2, Black: 2, White: 1, Result: BlackWins},
		{Round: 2, Black: 4, White: 3, Result: BlackWins},
	}}
	st, _ := Standings(f, RoundRobinOrder)
	// 甲 and 乙 beat each other (2 points, winners' score 2 each); 甲 has a warning
	pos := map[string]int{}
	for _, s := range st {
		pos[s.Name] = s.Place
	}
	if pos["乙"] > pos["甲"] {
		t.Fatalf("the warned player ranks above: %v", names(st))
	}
	// 丙 and 丁 are equal in everything: the lot decides, the same way every time
	again, _ := Standings(f, RoundRobinOrder)
	if names(st) != names(again) {
		t.Fatal("the lot is not repeatable")
	}
}

// TestSwissTotal works formula (A) with three rounds: total = points + SOS/3 − 3.
func TestSwissTotal(t *testing.T) {
	// byes stand in for earlier rounds' points; round 2 pairs X–o1, Y–o2, Z–o3
	f := Field{Rounds: 3, Entrants: entrants("X", "Y", "Z", "o1", "o2", "o3"),
		Byes: []Bye{{1, 1, 2}, {1, 2, 2}, {1, 3, 4}, {1, 4, 3}, {1, 5, 1}, {1, 6, 1}},
		Games: []Game{
			{Round: 2, Black: 1, White: 4, Result: BlackWins},
			{Round: 2, Black: 2, White: 5, Result: BlackWins},
			{Round: 2, Black: 3, White: 6, Result: BlackWins},
		}}
	st, err := Standings(f, SwissTotalOrder)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Standing{}
	for _, s := range st {
		got[s.Name] = s
	}
	// X: 4 points, SOS 3 → 4 + 1 − 3 = 2; Y: 4, SOS 1 → 1.33; Z: 6, SOS 1 → 3.33
	if got["X"].Points != 4 || got["X"].SOS != 3 || got["Y"].SOS != 1 || got["Z"].Points != 6 || got["Z"].SOS != 1 {
		t.Fatalf("points/SOS: %+v", got)
	}
	if got["X"].Total != 2 || got["Z"].Place != 1 || got["X"].Place != 2 || got["Y"].Place <= got["X"].Place {
		t.Fatalf("swiss (A): %s; X total %v", names(st), got["X"].Total)
	}
	// by points alone Y would tie X; (A) puts the stronger opposition first
	if got["X"].Total <= got["Y"].Total {
		t.Fatalf("X %v should total above Y %v", got["X"].Total, got["Y"].Total)
	}
}

func TestSwissSOSOrder(t *testing.T) {
	// four players, two rounds: 1 beats 2 and 3; 4 beats 3 and loses to 2
	f := Field{Entrants: entrants("p1", "p2", "p3", "p4"), Games: []Game{
		{Round: 1, Black: 1, White: 2, Result: BlackWins},
		{Round: 1, Black: 3, White: 4, Result: WhiteWins},
		{Round: 2, Black: 1, White: 3, Result: BlackWins},
		{Round: 2, Black: 2, White: 4, Result: BlackWins},
	}}
	st, _ := Standings(f, SwissSOSOrder)
	// p1 4; p2 2 (SOS p1 4 + p4 2 = 6); p4 2 (SOS p3 0 + p2 2 = 2); p3 0
	if got := names(st); got != "p1 p2 p4 p3" {
		t.Fatalf("order %q", got)
	}
	if st[1].SOS != 6 || st[2].SOS != 2 || st[0].SOSOS != st[1].SOS+st[3].SOS {
		t.Fatalf("SOS/SOSOS: %+v", st)
	}
}

// TestRoundRobinWithdrawal: fewer than half the rounds played voids every
// result; half or more keeps them and forfeits the rest.
func TestRoundRobinWithdrawal(t *testing.T) {
	sched, _ := RoundRobin(6, false) // 5 rounds
	mk := func(playedRounds int) []Game {
		var gs []Game
		for r, round := range sched {
			for _, p := range round {
				g := Game{Round: r + 1, Black: p.A, White: p.B}
				if r < playedRounds {
					g.Result = BlackWins
				}
				if r >= playedRounds && p.A != 6 && p.B != 6 {
					g.Result = WhiteWins
				}
				gs = append(gs, g)
			}
		}
		return gs
	}
	es := entrants("1", "2", "3", "4", "5", "6")
	es[5].Withdrawn = true

	// player 6 played rounds 1 and 2 of 5: fewer than half, all his games void
	early := ApplyWithdrawals(es, mk(2), 5)
	for _, g := range early {
		if g.Black == 6 || g.White == 6 {
			t.Fatalf("a game of the withdrawn player remains: %+v", g)
		}
	}
	if len(early) != 10 {
		t.Fatalf("%d games remain, want 10", len(early))
	}
	// played 3 of 5: results stand, the two left are forfeits to his opponents
	late := ApplyWithdrawals(es, mk(3), 5)
	forfeits := 0
	for _, g := range late {
		if g.Black == 6 || g.White == 6 {
			switch {
			case g.Round <= 3 && g.Result != BlackWins:
				t.Fatalf("a played result changed: %+v", g)
			case g.Round > 3 && ((g.Black == 6 && g.Result != WhiteForfeit) || (g.White == 6 && g.Result != BlackForfeit)):
				t.Fatalf("remaining game not forfeited to the opponent: %+v", g)
			case g.Round > 3:
				forfeits++
			}
		}
	}
	if len(late) != 15 || forfeits != 2 {
		t.Fatalf("%d games, %d forfeits; want 15 and 2", len(late), forfeits)
	}
	st, _ := Standings(Field{Entrants: es, Games: early}, RoundRobinOrder)
	if st[len(st)-1].Name != "6" || st[len(st)-1].Points != 0 {
		t.Fatalf("the voided player is not last with nothing: %+v", st[len(st)-1])
	}
}

// TestArticle27SwissOrders: method B is points, opponents' points, then
// warnings — SOSOS only when the event opts into the extended order —
// and method A's 最高积分 is the possible score unless the event reads it
// as the score reached.
func TestArticle27SwissOrders(t *testing.T) {
	// A and B: one win each over opponents of 2 points (SOS 2 each); A's
	// opponent o1 also met o3, so A's SOSOS is higher; A has a warning.
	f := Field{Entrants: entrants("A", "B", "o1", "o2", "o3"),
		Games: []Game{
			{Round: 1, Black: 1, White: 3, Result: BlackWins, BlackWarnings: 1},
			{Round: 1, Black: 2, White: 4, Result: BlackWins},
			{Round: 2, Black: 5, White: 3, Result: BlackWins},
		},
		Byes: []Bye{{Round: 3, Player: 3, Points: 2}, {Round: 2, Player: 4, Points: 2}}}
	b, _ := Standings(f, SwissSOSOrder)
	ext, _ := Standings(f, SwissSOSExtendedOrder)
	place := func(st []Standing, name string) int {
		for _, s := range st {
			if s.Name == name {
				return s.Place
			}
		}
		return 0
	}
	if place(b, "B") >= place(b, "A") {
		t.Fatalf("method B: fewer warnings first, got %s", names(b))
	}
	if place(ext, "A") >= place(ext, "B") {
		t.Fatalf("extended: SOSOS before warnings, got %s", names(ext))
	}

	// Swiss (A) over 4 scheduled rounds: X 4 points, SOS 3; the highest
	// score reached is Z's 6.
	g := Field{Rounds: 4, Entrants: entrants("X", "Y", "Z", "o1", "o2", "o3"),
		Byes: []Bye{{1, 1, 2}, {1, 2, 2}, {1, 3, 4}, {1, 4, 3}, {1, 5, 1}, {1, 6, 1}},
		Games: []Game{
			{Round: 2, Black: 1, White: 4, Result: BlackWins},
			{Round: 2, Black: 2, White: 5, Result: BlackWins},
			{Round: 2, Black: 3, White: 6, Result: BlackWins},
		}}
	possible, _ := Standings(g, SwissTotalOrder)
	reached, _ := Standings(g, SwissTotalReachedOrder)
	total := func(st []Standing, name string) float64 {
		for _, s := range st {
			if s.Name == name {
				return s.Total
			}
		}
		return -99
	}
	if got := total(possible, "X"); got != 4+3.0/4-4 { // ½ × 8 possible
		t.Fatalf("possible: X total %v", got)
	}
	if got := total(reached, "X"); got != 4+3.0/3-4 { // ½ × 6 reached
		t.Fatalf("reached: X total %v", got)
	}
}

// TestSharedPlaces: players equal on every criterion share the place when
// the event allows it (art. 27 C), and are drawn apart by lot otherwise.
func TestSharedPlaces(t *testing.T) {
	f := Field{Entrants: entrants("A", "B", "C", "D"), Games: []Game{
		{Round: 1, Black: 1, White: 3, Result: BlackWins},
		{Round: 1, Black: 2, White: 4, Result: BlackWins},
	}}
	lotted, _ := Standings(f, SwissSOSOrder)
	if lotted[0].Place != 1 || lotted[1].Place != 2 || lotted[0].Tied {
		t.Fatalf("by lot: %+v", lotted[:2])
	}
	f.Ties = TiesShared
	shared, _ := Standings(f, SwissSOSOrder)
	if shared[0].Place != 1 || shared[1].Place != 1 || !shared[0].Tied || !shared[1].Tied || shared[2].Place != 3 || shared[3].Place != 3 {
		t.Fatalf("shared: %+v", shared)
	}
}
