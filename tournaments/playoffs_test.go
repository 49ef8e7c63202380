package tournaments

import "testing"

// TestPlayoffStandings: three players equal after a cycle; a playoff game
// 1 beats 2 separates 1 from the others and leaves 2 and 3 tied; an event
// drawing lots ignores playoff games.
func TestPlayoffStandings(t *testing.T) {
	f := Field{
		Entrants: []Entrant{{ID: 1, Name: "a"}, {ID: 2, Name: "b"}, {ID: 3, Name: "c"}},
		Games: []Game{{Round: 1, Black: 1, White: 2, Result: BlackWins}, {Round: 2, Black: 2, White: 3, Result: BlackWins},
			{Round: 3, Black: 3, White: 1, Result: BlackWins}},
		Playoff: []Game{{Round: 4, Black: 2, White: 1, Result: WhiteWins}},
		Ties:    TiesPlayoff,
	}
	st, err := Standings(f, RoundRobinOrder)
	if err != nil {
		t.Fatal(err)
	}
	if st[0].Entrant != 1 || st[0].Place != 1 || st[0].Tied || st[0].PlayoffPoints != 2 || st[0].Points != 2 || st[0].Wins != 1 {
		t.Fatalf("the playoff's winner: %+v", st[0])
	}
	if st[1].Place != 2 || st[2].Place != 2 || !st[1].Tied || !st[2].Tied {
		t.Fatalf("2 and 3 still level: %+v", st[1:])
	}
	f.Ties = TiesByLot
	st, _ = Standings(f, RoundRobinOrder)
	for _, s := range st {
		if s.PlayoffPoints != 0 || s.Tied {
			t.Fatalf("lots: %+v", st)
		}
	}
}
