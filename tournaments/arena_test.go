package tournaments

import (
	"fmt"
	"testing"
)

// arenaField is two teams of n: team 甲 numbers 1..n in order, team 乙 n+1..2n.
func arenaField(n int) []Participant {
	var ps []Participant
	for t, name := range []string{"甲", "乙"} {
		for i := 1; i <= n; i++ {
			ps = append(ps, Participant{Number: t*n + i, Name: fmt.Sprint(name, i), Team: name, Board: i})
		}
	}
	return ps
}

// playArena plays an arena match: outcome(a, b) gives the result of the
// game between the player on for 甲 (a) and for 乙 (b) as "a", "b", "draw",
// "none" (no result) or "both_lose".
func playArena(t *testing.T, ps []Participant, outcome func(a, b, game int) string) (ArenaResult, []Game) {
	t.Helper()
	var games []Game
	for round := 1; round <= 40; round++ {
		st, err := ArenaState(ps, games, ColoursByDraw)
		if err != nil {
			t.Fatal(err)
		}
		if st.Decided {
			return st, games
		}
		g := Game{Round: round, Board: 1, Black: st.Next.Black, White: st.Next.White}
		a, b := g.Black, g.White
		if ps[a-1].Team != "甲" {
			a, b = b, a
		}
		aIsBlack := a == g.Black
		switch outcome(a, b, round) {
		case "a":
			g.Result = map[bool]Result{true: BlackWins, false: WhiteWins}[aIsBlack]
		case "b":
			g.Result = map[bool]Result{true: WhiteWins, false: BlackWins}[aIsBlack]
		case "draw":
			g.Result = Draw
		case "both_lose":
			g.Result = BothLose
		case "none":
			g.Result = NoResult
		}
		games = append(games, g)
	}
	t.Fatal("the arena never ended")
	return ArenaResult{}, nil
}

func TestArenaState(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		outcome func(a, b, game int) string
		games   int
		winner  string
		level   bool
		wins    map[int]int // participant → wins in a row
	}{
		{"甲's first beats all five", 5, func(a, b, _ int) string { return "a" }, 5, "甲", false, map[int]int{1: 5}},
		{"乙's first beats all five", 5, func(a, b, _ int) string { return "b" }, 5, "乙", false, map[int]int{6: 5}},
		{"alternating: the newcomer wins", 5, func(a, b, g int) string {
			if g == 1 {
				return "a"
			}
			if g%2 == 0 {
				return "b"
			}
			return "a"
		}, 9, "甲", false, map[int]int{1: 1, 7: 1, 2: 1, 8: 1, 3: 1, 9: 1, 4: 1, 10: 1, 5: 1}},
		{"a draw puts both out", 3, func(a, b, _ int) string { return "draw" }, 3, "", true, map[int]int{}},
		{"a draw then 乙 wins", 3, func(a, b, g int) string {
			if g == 1 {
				return "draw"
			}
			return "b"
		}, 3, "乙", false, map[int]int{5: 2}},
		{"no result is replayed", 2, func(a, b, g int) string {
			if g == 1 {
				return "none"
			}
			return "a"
		}, 3, "甲", false, map[int]int{1: 2}},
		{"both lose puts both out", 2, func(a, b, g int) string {
			if g == 1 {
				return "both_lose"
			}
			return "b"
		}, 2, "乙", false, map[int]int{4: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, games := playArena(t, arenaField(tt.n), tt.outcome)
			if len(games) != tt.games || st.Winner != tt.winner || st.Level != tt.level {
				t.Fatalf("%d games, winner %q, level %v; want %d, %q, %v", len(games), st.Winner, st.Level, tt.games, tt.winner, tt.level)
			}
			for _, p := range st.Players {
				if p.Wins != tt.wins[p.Number] {
					t.Errorf("participant %d: %d wins in a row, want %d", p.Number, p.Wins, tt.wins[p.Number])
				}
			}
			loser := 0
			if tt.winner == "甲" {
				loser = 1
			}
			if !tt.level && (st.Left[loser] != 0 || st.Left[1-loser] == 0) {
				t.Fatalf("players left %v", st.Left)
			}
		})
	}
}

func TestArenaPairing(t *testing.T) {
	ps := arenaField(3)
	st, err := ArenaState(ps, nil, ColoursByDraw)
	if err != nil || st.Next != (Pairing{Black: 1, White: 4}) {
		t.Fatalf("first game %+v, %v: want first against first, the first team black", st.Next, err)
	}
	// 甲1 (black) wins: 乙2 comes on and takes black
	games := []Game{{Round: 1, Board: 1, Black: 1, White: 4, Result: BlackWins}}
	if st, _ = ArenaState(ps, games, ColoursByDraw); st.Next != (Pairing{Black: 5, White: 1}) {
		t.Fatalf("second game %+v: the newcomer 5 takes black against the winner 1", st.Next)
	}
	// a draw: both new, the side that had white (甲) takes black
	games = append(games, Game{Round: 2, Board: 1, Black: 5, White: 1, Result: Draw})
	if st, _ = ArenaState(ps, games, ColoursByDraw); st.Next != (Pairing{Black: 2, White: 6}) {
		t.Fatalf("after a draw %+v", st.Next)
	}
	bad := []struct {
		name  string
		ps    []Participant
		games []Game
	}{
		{"three teams", append(arenaField(2), Participant{Number: 5, Team: "丙", Board: 1}), nil},
		{"unequal teams", arenaField(2)[:3], nil},
		{"a gap in the order", func() []Participant { p := arenaField(2); p[1].Board = 3; return p }(), nil},
		{"no board", func() []Participant { p := arenaField(2); p[0].Board = 0; return p }(), nil},
		{"the wrong players", arenaField(2), []Game{{Round: 1, Black: 2, White: 3, Result: BlackWins}}},
		{"both win", arenaField(2), []Game{{Round: 1, Black: 1, White: 3, Result: BothWin}}},
	}
	for _, b := range bad {
		if _, err := ArenaState(b.ps, b.games, ColoursByDraw); err == nil {
			t.Errorf("%s: accepted", b.name)
		}
	}
}

func TestArenaTeamStandings(t *testing.T) {
	st, games := playArena(t, arenaField(2), func(a, b, _ int) string { return "b" })
	standings, err := Standings(Field{Entrants: []Entrant{{ID: 1}, {ID: 2}, {ID: 3}, {ID: 4}}, Games: games}, RoundRobinOrder)
	if err != nil {
		t.Fatal(err)
	}
	ts := ArenaTeamStandings(st, standings)
	if ts[0].Team != "乙" || ts[0].Place != 1 || ts[0].MatchPoints != WinPoints || ts[0].BoardPoints != 4 || ts[0].ByBoard[0] != 4 ||
		ts[1].Team != "甲" || ts[1].Place != 2 || ts[1].MatchPoints != 0 {
		t.Fatalf("team standings %+v", ts)
	}
}

func TestOrderBoards(t *testing.T) {
	ps := []Participant{{Number: 1, Team: "A"}, {Number: 2, Team: "A"}, {Number: 3, Team: "A"}, {Number: 4, Team: "A"}, {Number: 5, Team: "B"}}
	keys := map[int]boardKey{
		1: {strength: 30},                            // 1k... unrated
		2: {strength: 31, rated: true, rating: 2000}, // 1d
		3: {strength: 31, rated: true, rating: 2100}, // 1d, rated higher
		4: {strength: 31},                            // 1d, unrated
		5: {strength: 20},
	}
	got := orderBoardsBy(ps, keys)
	if fmt.Sprint(got["A"]) != "[3 2 4 1]" || fmt.Sprint(got["B"]) != "[5]" {
		t.Fatalf("boards %v: want rank first, then the higher rating, then unrated, then number", got)
	}
}
