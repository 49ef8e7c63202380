package ratings

import (
	"math"
	"testing"
)

func TestGoRRank(t *testing.T) {
	for _, tt := range []struct {
		r    float64
		want int
		name string
	}{
		{2100, 1, "1d"}, {2149, 1, "1d"}, {2150, 2, "2d"}, {2050, 1, "1d"}, {2049, -1, "1k"},
		{2000, -1, "1k"}, {1950, -1, "1k"}, {1949, -2, "2k"}, {-900, -30, "30k"}, {-2000, -30, "30k"},
		{2700, 7, "7d"}, {3500, 9, "9d"},
	} {
		if got := GoRRank(tt.r); got != tt.want || RankName(got) != tt.name {
			t.Errorf("GoRRank(%v) = %d (%s), want %d (%s)", tt.r, got, RankName(got), tt.want, tt.name)
		}
	}
	// GradeGoR is ParseRank's scale, and GoRRank its inverse
	for g := -30; g <= 9; g++ {
		if g == 0 {
			continue
		}
		r, err := ParseRank(RankName(g))
		if err != nil || r.GoR != GradeGoR(g) || GoRRank(GradeGoR(g)) != g {
			t.Errorf("grade %d: ParseRank %v (%v), GradeGoR %v, back %d", g, r.GoR, err, GradeGoR(g), GoRRank(GradeGoR(g)))
		}
	}
}

func TestEstimateRank(t *testing.T) {
	for _, tt := range []struct {
		mean, sd float64
		want     Estimate
	}{
		{2100, 0, Estimate{1, 1, 1}},
		{2100, 100, Estimate{1, -2, 3}}, // ± 196: 1904 (2k) … 2296 (3d)
		{2300, 25, Estimate{3, 3, 3}},
		{-860, 100, Estimate{-30, -30, -28}},
	} {
		if got := EstimateRank(tt.mean, tt.sd); got != tt.want {
			t.Errorf("EstimateRank(%v, %v) = %+v, want %+v", tt.mean, tt.sd, got, tt.want)
		}
	}
}

// TestStateRestoresAReplay: rating games in two parts, the second from
// beliefs saved and restored into a new system, gives exactly the ratings
// of one replay of all of them.
func TestStateRestoresAReplay(t *testing.T) {
	rank := func(s string) Rank { r, _ := ParseRank(s); return r }
	games := []Game{
		{Day: 100, Event: "a", Round: "1", Black: 0, White: 1, BlackRank: rank("1d"), WhiteRank: rank("2k"), Winner: 'W'},
		{Day: 100, Event: "a", Round: "1", Black: 2, White: 3, BlackRank: rank("3d"), WhiteRank: Rank{}, Winner: 'B'},
		{Day: 100, Event: "a", Round: "2", Black: 1, White: 2, BlackRank: rank("2k"), WhiteRank: rank("3d"), Handicap: 4, Komi: 0.5, HasKomi: true, Winner: 'B'},
		{Day: 130, Event: "b", Round: "1", Black: 3, White: 0, BlackRank: rank("5k"), WhiteRank: rank("1d"), Winner: 'D'},
		{Day: 130, Event: "b", Round: "2", Black: 0, White: 2, BlackRank: rank("1d"), WhiteRank: rank("4d"), Winner: 'W'},
	}
	p := RegistryBayes()
	whole := NewBayes(4, 600, p)
	Replay(games, whole, ByRound)
	first := NewBayes(4, 600, p)
	Replay(games[:3], first, ByRound)
	second := NewBayes(4, 600, p)
	for i := range int32(4) {
		second.SetState(i, first.State(i))
	}
	Replay(games[3:], second, ByRound)
	for i := range int32(4) {
		a, b := whole.State(i), second.State(i)
		same := a.Mean == b.Mean && a.Var == b.Var && a.LastDay == b.LastDay && a.Seen == b.Seen &&
			(a.Rank == b.Rank || math.IsNaN(a.Rank) && math.IsNaN(b.Rank))
		if !same || !a.Seen {
			t.Errorf("player %d: one replay %+v, two %+v", i, a, b)
		}
	}
}

// Estimates name playing grades only: never 8 or 9 dan, never below 30 kyu.
func TestEstimateRankBoundedToPlayingGrades(t *testing.T) {
	for _, tt := range []struct {
		mean, sd       float64
		rank, lo, high int
	}{
		{2550, 300, 6, -1, 7}, // the top of the interval would be 9d
		{3200, 50, 7, 7, 7},   // a rating beyond 9d
		{-800, 300, -29, -30, -23},
	} {
		if e := EstimateRank(tt.mean, tt.sd); e != (Estimate{tt.rank, tt.lo, tt.high}) {
			t.Errorf("EstimateRank(%v, %v) = %+v, want %d (%d – %d)", tt.mean, tt.sd, e, tt.rank, tt.lo, tt.high)
		}
	}
}
