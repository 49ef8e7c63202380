package tournaments

import (
	"errors"
	"testing"

	"github.com/dankyu/dankyu/ledger"
)

// TestTeamStandingsByTotal: 队员总分制 ranks by the members' points before
// match points. Four teams of three boards: A beats B 2–1 and D 2–1 (match
// points 4, board points 8); C beats D 3–0 and draws B 1–1–1 (match points
// 3, board points 9).
func TestTeamStandingsByTotal(t *testing.T) {
	members := map[int]TeamMember{}
	for i, team := range []string{"A", "B", "C", "D"} {
		for b := 1; b <= 3; b++ {
			members[i*3+b] = TeamMember{team, b}
		}
	}
	m := func(round, x, y int, results ...Result) []Game { // team x's board k black against team y's
		var out []Game
		for k, r := range results {
			out = append(out, Game{Round: round, Board: k + 1, Black: x*3 + k + 1, White: y*3 + k + 1, Result: r})
		}
		return out
	}
	var games []Game
	games = append(games, m(1, 0, 1, BlackWins, BlackWins, WhiteWins)...)
	games = append(games, m(1, 2, 3, BlackWins, BlackWins, BlackWins)...)
	games = append(games, m(2, 0, 3, BlackWins, WhiteWins, BlackWins)...)
	games = append(games, m(2, 2, 1, BlackWins, Draw, WhiteWins)...)
	order := func(st []TeamStanding) string {
		s := ""
		for _, x := range st {
			s += x.Team
		}
		return s
	}
	tests := []struct {
		name string
		rank func(map[int]TeamMember, []Game, []string) ([]TeamStanding, error)
		want string
	}{
		{"match points first (分台定人制)", TeamStandings, "ACBD"},
		{"members' total first (队员总分制)", TeamStandingsByTotal, "CABD"},
	}
	for _, tt := range tests {
		st, err := tt.rank(members, games, nil)
		if err != nil || order(st) != tt.want {
			t.Errorf("%s: %s (%v), want %s", tt.name, order(st), err, tt.want)
		}
	}
}

func TestCheckLineup(t *testing.T) {
	ps := []Participant{
		{Number: 1, Team: "X", Board: 1}, {Number: 2, Team: "X", Board: 2}, {Number: 3, Team: "X", Board: 3, Reserve: true},
		{Number: 4, Team: "Y", Board: 1}, {Number: 5, Team: "Y", Board: 2, Withdrawn: true, WithdrewAfter: 1},
	}
	tests := []struct {
		name    string
		format  TeamFormat
		numbers []int
		want    *ledger.Reason
	}{
		{"starters in order", FixedOrder, []int{1, 2}, nil},
		{"a substitute in his place", FixedOrder, []int{1, 3}, nil},
		{"out of the fixed order", FixedOrder, []int{2, 1}, ReasonLineupOrder},
		{"any order, 临场出人制", FreeLineup, []int{3, 1}, nil},
		{"too few", FreeLineup, []int{1}, ReasonLineupSize},
		{"twice", FreeLineup, []int{1, 1}, ReasonLineupTwice},
		{"another team's", FreeLineup, []int{1, 4}, ReasonLineupNotMember},
		{"no such participant", FreeLineup, []int{1, 9}, ReasonLineupNotMember},
	}
	for _, tt := range tests {
		err := checkLineup(Event{TeamFormat: tt.format}, ps, LineupInput{Team: "X", Numbers: tt.numbers})
		var le *ledger.Error
		switch {
		case tt.want == nil && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != nil && (!errors.As(err, &le) || le.Reason != tt.want):
			t.Errorf("%s: %v, want %s", tt.name, err, tt.want.Code())
		}
	}
	// Y has nobody but its withdrawn member to name: his board is a forfeit
	if err := checkLineup(Event{TeamFormat: FreeLineup}, ps, LineupInput{Team: "Y", Numbers: []int{4, 5}}); err != nil {
		t.Errorf("a team left with its withdrawn member: %v", err)
	}
	// X's substitute can play for the withdrawn 2
	ps[1].Withdrawn = true
	if err := checkLineup(Event{TeamFormat: FixedOrder}, ps, LineupInput{Team: "X", Numbers: []int{1, 2}}); err == nil {
		t.Error("a withdrawn member named while a substitute is free")
	}
	if err := checkLineup(Event{TeamFormat: FixedOrder}, ps, LineupInput{Team: "X", Numbers: []int{1, 3}}); err != nil {
		t.Errorf("the substitute for the withdrawn member: %v", err)
	}
}

func TestTeamFormatSettings(t *testing.T) {
	tests := []struct {
		name     string
		e        Event
		format   string
		reserves int
		ok       bool
	}{
		{"default", Event{Team: true, System: SwissSystem}, "", 0, true},
		{"an individual event", Event{System: SwissSystem}, "free_lineup", 0, false},
		{"substitutes with lineups", Event{Team: true, System: SwissSystem}, "fixed_order", 2, true},
		{"substitutes with fixed boards", Event{Team: true, System: SwissSystem}, "fixed_boards", 1, false},
		{"all-play in a round robin", Event{Team: true, System: RoundRobinSystem}, "all_play", 0, true},
		{"all-play in a Swiss", Event{Team: true, System: SwissSystem}, "all_play", 0, false},
		{"an arena with lineups", Event{Team: true, System: ArenaSystem}, "free_lineup", 0, false},
		{"too many substitutes", Event{Team: true, System: SwissSystem}, "free_lineup", 10, false},
		{"no such format", Event{Team: true, System: SwissSystem}, "relay", 0, false},
	}
	for _, tt := range tests {
		if _, _, err := teamFormat(tt.format, tt.reserves, tt.e); (err == nil) != tt.ok {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}
