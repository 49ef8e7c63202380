package ratings

import (
	"fmt"
	"strings"
	"testing"
)

// spy records the order of calls.
type spy struct{ log []string }

func (s *spy) Predict(g *Game) float64 {
	s.log = append(s.log, fmt.Sprintf("p%s", g.Round))
	return 0.5
}

func (s *spy) Update(batch []Game) {
	var rs []string
	for _, g := range batch {
		rs = append(rs, g.Round)
	}
	s.log = append(s.log, "u"+strings.Join(rs, ""))
}

func TestReplayBatches(t *testing.T) {
	// Round labels: games a,b in round 1 of e on day 1; c round 2; d round 1 again later.
	games := []Game{
		{Day: 1, Event: "e", Round: "a"}, {Day: 1, Event: "e", Round: "a"},
		{Day: 1, Event: "e", Round: "c"},
		{Day: 1, Event: "f", Round: "c"},
		{Day: 2, Event: "f", Round: "c"},
		{Day: 2, Event: "f", Round: "c"},
	}
	games[1].Round, games[0].Round = "a", "a"
	tests := []struct {
		batch Batch
		want  string
	}{
		{ByGame, "pa ua pa ua pc uc pc uc pc uc pc uc"},
		{ByRound, "pa pa uaa pc uc pc uc pc pc ucc"},
	}
	for _, tt := range tests {
		s := &spy{}
		p := Replay(games, s, tt.batch)
		if got := strings.Join(s.log, " "); got != tt.want {
			t.Errorf("batch %v: calls %q, want %q", tt.batch, got, tt.want)
		}
		if len(p) != len(games) {
			t.Errorf("batch %v: %d predictions", tt.batch, len(p))
		}
	}
}

func TestParseBatch(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Batch
		ok   bool
	}{{"game", ByGame, true}, {"round", ByRound, true}, {"tournament", 0, false}} {
		b, err := ParseBatch(tt.in)
		if (err == nil) != tt.ok || (tt.ok && b != tt.want) {
			t.Errorf("ParseBatch(%q) = %v, %v", tt.in, b, err)
		}
	}
}

// A batch's predictions cannot depend on its results: flipping every
// result of the last day of server games leaves that day's predictions
// unchanged with round batches (a server "round" is a day), though they
// change with per-game updates, where players meet again the same day.
func TestBatchPredictionsIgnoreBatchResults(t *testing.T) {
	gs := readTestdata(t, "tygem-3000.csv")
	last := gs.Games[len(gs.Games)-1].Day
	flipped := append([]Game(nil), gs.Games...)
	for i := range flipped {
		if flipped[i].Day == last {
			flipped[i].Winner = 'B' + 'W' - flipped[i].Winner
		}
	}
	for _, m := range Models() {
		x := make([]float64, len(m.Params))
		for i, p := range m.Params {
			x[i] = p.Init
		}
		replay := func(g []Game, b Batch) []float64 { return Replay(g, m.New(x, len(gs.Players), 2900), b) }
		a, b := replay(gs.Games, ByRound), replay(flipped, ByRound)
		c, d := replay(gs.Games, ByGame), replay(flipped, ByGame)
		changed := false
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%s: game %d predicted %v, %v with its day flipped", m.Name, i, a[i], b[i])
			}
			if c[i] != d[i] {
				changed = true
			}
		}
		if !changed {
			t.Errorf("%s: flipping results changed no per-game prediction (test is vacuous)", m.Name)
		}
	}
}
