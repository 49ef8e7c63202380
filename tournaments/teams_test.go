package tournaments

import "testing"

// TestTeamStandings: three teams of two boards. A beats B 2–0 on boards,
// B and C draw 1–1 (board 1 to B), A and C draw 1–1 (board 1 to C).
// Match points A 3, B 1, C 2; board points A 3, C 2, B 1.
func TestTeamStandings(t *testing.T) {
	members := map[int]TeamMember{
		1: {"A", 1}, 2: {"A", 2}, 3: {"B", 1}, 4: {"B", 2}, 5: {"C", 1}, 6: {"C", 2},
	}
	games := []Game{
		{Round: 1, Black: 1, White: 3, Result: BlackWins}, {Round: 1, Black: 4, White: 2, Result: WhiteWins},
		{Round: 2, Black: 3, White: 5, Result: BlackWins}, {Round: 2, Black: 6, White: 4, Result: BlackWins},
		{Round: 3, Black: 5, White: 1, Result: BlackWins}, {Round: 3, Black: 2, White: 6, Result: BlackWins},
	}
	st, err := TeamStandings(members, games, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := ""
	for _, s := range st {
		got += s.Team
	}
	if got != "ACB" || st[0].MatchPoints != 3 || st[1].MatchPoints != 2 || st[2].MatchPoints != 1 {
		t.Fatalf("standings %+v", st)
	}
	// B and C level on match and board points: the first board decides
	members2 := map[int]TeamMember{1: {"B", 1}, 2: {"B", 2}, 3: {"C", 1}, 4: {"C", 2}}
	st, _ = TeamStandings(members2, []Game{
		{Round: 1, Black: 1, White: 3, Result: BlackWins}, {Round: 1, Black: 2, White: 4, Result: WhiteWins},
	}, nil)
	if st[0].Team != "B" || st[0].Place != 1 || st[1].Place != 2 {
		t.Fatalf("first-board tie-break: %+v", st)
	}
	// all equal: a shared place
	st, _ = TeamStandings(members2, []Game{{Round: 1, Black: 1, White: 3, Result: Draw}, {Round: 1, Black: 2, White: 4, Result: Draw}}, nil)
	if st[0].Place != 1 || st[1].Place != 1 {
		t.Fatalf("equal teams should share the place: %+v", st)
	}
	// a bye is a match won without board points
	st, _ = TeamStandings(members2, nil, []string{"C"})
	if st[0].Team != "C" || st[0].MatchPoints != 2 || st[0].BoardPoints != 0 || st[0].Matches != 1 {
		t.Fatalf("team bye: %+v", st)
	}
}
