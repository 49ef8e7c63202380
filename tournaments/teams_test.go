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

// TestTeamSwissByTotalScore: "在积分编排赛制的团体赛中，团体成绩根据总得分或总积分
// 的高低区分名次，总得分计算办法与个人积分编排制比赛相同。如相同则依循环赛顺序区分
// 名次。" Four one-board teams, two rounds: A beats B and C beats D, then C
// beats A and B beats D. Match points C 4, A 2, B 2, D 0; opponents' match
// points A 6, B 2, C 2, D 6; total = points + SOS ÷ 2 − 2: A 3, C 3, B 1,
// D 1. A and B, level on match and board points, share a place by match
// points; by total A is above B. A and C are level on total: the
// round-robin order (match points) puts C first.
func TestTeamSwissByTotalScore(t *testing.T) {
	members := map[int]TeamMember{1: {"A", 1}, 2: {"B", 1}, 3: {"C", 1}, 4: {"D", 1}}
	games := []Game{
		{Round: 1, Black: 1, White: 2, Result: BlackWins}, {Round: 1, Black: 3, White: 4, Result: BlackWins},
		{Round: 2, Black: 1, White: 3, Result: WhiteWins}, {Round: 2, Black: 2, White: 4, Result: BlackWins},
	}
	for _, tt := range []struct {
		what   string
		rank   func() ([]TeamStanding, error)
		order  string
		places []int
		totals []float64
	}{
		{"by match points", func() ([]TeamStanding, error) { return TeamStandings(members, games, nil) }, "CABD", []int{1, 2, 2, 4}, nil},
		{"by total score (A)", func() ([]TeamStanding, error) { return TeamStandingsBySwissTotal(members, games, nil, 2) }, "CABD", []int{1, 2, 3, 4}, []float64{3, 3, 1, 1}},
	} {
		st, err := tt.rank()
		if err != nil {
			t.Fatal(err)
		}
		order := ""
		for i, s := range st {
			order += s.Team
			if s.Place != tt.places[i] || (tt.totals != nil && s.Total != tt.totals[i]) {
				t.Errorf("%s: %s placed %d total %v; want %d, %v", tt.what, s.Team, s.Place, s.Total, tt.places[i], tt.totals)
			}
		}
		if order != tt.order {
			t.Errorf("%s: %s, want %s", tt.what, order, tt.order)
		}
	}
	if _, err := TeamStandingsBySwissTotal(members, games, nil, 0); err == nil {
		t.Error("a total without the number of rounds")
	}
}
