package tournaments

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/dankyu/dankyu/registry"
)

// simulate plays rounds of a Swiss event with random results and returns
// the players' final state.
func simulate(t testing.TB, n, rounds int, seed uint64) []SwissPlayer {
	rng := rand.New(rand.NewPCG(seed, 7))
	ps := make([]SwissPlayer, n)
	for i := range ps {
		ps[i] = SwissPlayer{ID: i + 1, Strength: rng.IntN(40), Met: map[int]bool{}}
	}
	byID := func(id int) *SwissPlayer { return &ps[id-1] }
	for r := 1; r <= rounds; r++ {
		round, err := PairSwiss(ps, seed+uint64(r))
		if err != nil {
			t.Fatalf("%d players, round %d (seed %d): %v", n, r, seed, err)
		}
		seen := map[int]bool{}
		for _, pr := range round.Pairs {
			b, w := byID(pr.Black), byID(pr.White)
			if seen[b.ID] || seen[w.ID] || b.ID == w.ID {
				t.Fatalf("round %d: a player paired twice", r)
			}
			seen[b.ID], seen[w.ID] = true, true
			if b.Met[w.ID] {
				t.Fatalf("%d players, seed %d, round %d: %d and %d meet again", n, seed, r, b.ID, w.ID)
			}
			b.Met[w.ID], w.Met[b.ID] = true, true
			b.Colour++
			w.Colour--
			if b.Colour > 2 || w.Colour < -2 {
				t.Fatalf("round %d: colour balance out of bounds (%d, %d)", r, b.Colour, w.Colour)
			}
			if rng.IntN(2) == 0 {
				b.Score += 2
			} else {
				w.Score += 2
			}
		}
		if round.Bye != 0 {
			by := byID(round.Bye)
			if by.HadBye {
				t.Fatalf("%d players, seed %d, round %d: player %d has a second bye", n, seed, r, by.ID)
			}
			if seen[by.ID] {
				t.Fatalf("round %d: the bye is also paired", r)
			}
			by.HadBye = true
			by.Score += 2
		}
		if len(round.Pairs)*2+map[bool]int{true: 1}[round.Bye != 0] != n {
			t.Fatalf("round %d: %d pairs and bye %d for %d players", r, len(round.Pairs), round.Bye, n)
		}
	}
	return ps
}

// TestSwissProperties runs hundreds of random events: nobody meets twice,
// byes go to different players, colour balance stays within two.
func TestSwissProperties(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		n := 10 + int(seed%41)    // 10 … 50 players, odd and even
		rounds := 5 + int(seed%4) // 5 … 8 rounds, at most half the field as dan-grade events play
		simulate(t, n, rounds, seed)
	}
}

func TestSwissIsRepeatable(t *testing.T) {
	ps := []SwissPlayer{{ID: 1, Met: map[int]bool{}}, {ID: 2, Met: map[int]bool{}}, {ID: 3, Met: map[int]bool{}}, {ID: 4, Met: map[int]bool{}}, {ID: 5, Met: map[int]bool{}}}
	a, _ := PairSwiss(ps, 42)
	b, _ := PairSwiss(ps, 42)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("same inputs, different rounds: %v / %v", a, b)
	}
	if a.Bye != 5 {
		t.Fatalf("bye to %d, want the lowest-placed player 5", a.Bye)
	}
	for _, p := range a.Pairs {
		if !p.Nigiri {
			t.Fatalf("equal balances without nigiri: %+v", p)
		}
	}
}

func TestSwissSplitsScoreGroups(t *testing.T) {
	// four players on 2 points, four on 0: top half meets bottom half in each group
	var ps []SwissPlayer
	for i := 1; i <= 8; i++ {
		s := 0
		if i <= 4 {
			s = 2
		}
		ps = append(ps, SwissPlayer{ID: i, Score: s, Strength: 10 - i, Met: map[int]bool{}})
	}
	r, err := PairSwiss(ps, 1)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]int{}
	for _, p := range r.Pairs {
		got[p.Black], got[p.White] = p.White, p.Black
	}
	if got[1] != 3 || got[2] != 4 || got[5] != 7 || got[6] != 8 {
		t.Fatalf("pairs %v, want 1–3, 2–4, 5–7, 6–8", r.Pairs)
	}
}

func TestKnockoutBracket(t *testing.T) {
	got, _ := KnockoutBracket(6)
	// 8 places: 1–8, 4–5, 2–7, 3–6; seeds 7 and 8 are missing, so 1 and 2 have byes
	want := []Pair{{1, 0}, {4, 5}, {2, 0}, {3, 6}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("bracket of 6: %v, want %v", got, want)
	}
	next, _ := NextKnockoutRound([]int{1, 5, 2, 3})
	if fmt.Sprint(next) != fmt.Sprint([]Pair{{1, 5}, {2, 3}}) {
		t.Fatalf("next round: %v", next)
	}
}

// BenchmarkSwissPairing500 pairs round 6 of a 500-player Swiss event,
// with its baseline in the same run: "sort" orders the field by score and
// strength (the floor any pairing pays), "pair" pairs the round. Compare
// the two sub-benchmarks' ns/op (and allocs/op): the ratio is the figure
// kept in docs/benchmarks.md.
func BenchmarkSwissPairing500(b *testing.B) {
	ps := simulate(b, 500, 5, 99)
	b.Run("sort", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			cp := append([]SwissPlayer(nil), ps...)
			sort.Slice(cp, func(i, j int) bool {
				if cp[i].Score != cp[j].Score {
					return cp[i].Score > cp[j].Score
				}
				return cp[i].Strength > cp[j].Strength
			})
		}
	})
	b.Run("pair", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if _, err := PairSwiss(ps, uint64(i)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkStandings500 computes Swiss standings (SOS, SOSOS, SODOS) for 500
// players after 6 rounds.
func BenchmarkStandings500(b *testing.B) {
	f := Field{Rounds: 6}
	rng := rand.New(rand.NewPCG(5, 5))
	for i := 1; i <= 500; i++ {
		f.Entrants = append(f.Entrants, Entrant{ID: i, Name: fmt.Sprintf("p%03d", i)})
	}
	for r := 1; r <= 6; r++ {
		perm := rng.Perm(500)
		for k := 0; k < 500; k += 2 {
			res := BlackWins
			if rng.IntN(2) == 0 {
				res = WhiteWins
			}
			f.Games = append(f.Games, Game{Round: r, Black: perm[k] + 1, White: perm[k+1] + 1, Result: res})
		}
	}
	for b.Loop() {
		if _, err := Standings(f, SwissSOSOrder); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDoubleElimination plays random double-elimination events to the end:
// nobody plays on after a second loss, and exactly one player remains.
func TestDoubleElimination(t *testing.T) {
	for seed := uint64(1); seed <= 100; seed++ {
		rng := rand.New(rand.NewPCG(seed, 3))
		n := 3 + int(seed%14)
		ps := make([]ElimPlayer, n)
		for i := range ps {
			ps[i] = ElimPlayer{ID: i + 1, Seed: i + 1, Met: map[int]bool{}}
		}
		for round := 1; ; round++ {
			if round > 4*n {
				t.Fatalf("%d players: no winner after %d rounds", n, round)
			}
			r, winner, err := EliminationRound(ps, 2, seed+uint64(round))
			if err != nil {
				t.Fatalf("%d players, round %d: %v", n, round, err)
			}
			if winner != 0 {
				left := 0
				for _, p := range ps {
					if p.Losses < 2 {
						left++
					}
				}
				if left != 1 || ps[winner-1].Losses >= 2 {
					t.Fatalf("%d players: winner %d with %d left", n, winner, left)
				}
				break
			}
			for _, pr := range r.Pairs {
				b, w := &ps[pr.Black-1], &ps[pr.White-1]
				if b.Losses >= 2 || w.Losses >= 2 {
					t.Fatalf("an eliminated player was paired in round %d", round)
				}
				b.Met[w.ID], w.Met[b.ID] = true, true
				if rng.IntN(2) == 0 {
					w.Losses++
				} else {
					b.Losses++
				}
			}
			if r.Bye != 0 {
				ps[r.Bye-1].HadBye = true
			}
		}
	}
}

// TestSwissAvoidPairingConstraint: the event states that players of the
// same club, school or family do not meet in the first rounds; the pairing
// keeps them apart where the field allows and reports the pairs it could
// not keep apart (a soft constraint, never a refusal).
func TestSwissAvoidPairingConstraint(t *testing.T) {
	p := func(id, score, strength int, avoid ...string) SwissPlayer {
		return SwissPlayer{ID: id, Score: score, Strength: strength, Met: map[int]bool{}, Avoid: avoid}
	}
	tests := []struct {
		name     string
		players  []SwissPlayer
		apart    [][2]int // pairs that must not be paired
		together int      // pairs reported as breaking the constraint
	}{
		{"split would pair clubmates 1-3: slides to keep them apart",
			[]SwissPlayer{p(1, 0, 10, "club:a"), p(2, 0, 9, "club:b"), p(3, 0, 8, "club:a"), p(4, 0, 7, "club:b")},
			[][2]int{{1, 3}, {2, 4}}, 0},
		{"school and family keys count like a club",
			[]SwissPlayer{p(1, 0, 10, "school:x"), p(2, 0, 9, "family:f"), p(3, 0, 8, "school:x"), p(4, 0, 7, "family:f")},
			[][2]int{{1, 3}, {2, 4}}, 0},
		{"without keys the split stands",
			[]SwissPlayer{p(1, 0, 10), p(2, 0, 9), p(3, 0, 8), p(4, 0, 7)},
			[][2]int{{1, 2}, {3, 4}}, 0},
		{"one club holds three of four: one pair must break it and is reported",
			[]SwissPlayer{p(1, 0, 10, "club:a"), p(2, 0, 9, "club:a"), p(3, 0, 8, "club:a"), p(4, 0, 7, "club:b")},
			nil, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := PairSwiss(tc.players, 1)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Pairs) != 2 {
				t.Fatalf("pairs %v", r.Pairs)
			}
			for _, pr := range r.Pairs {
				for _, ap := range tc.apart {
					if (pr.Black == ap[0] && pr.White == ap[1]) || (pr.Black == ap[1] && pr.White == ap[0]) {
						t.Fatalf("%d and %d paired: %v", ap[0], ap[1], r.Pairs)
					}
				}
			}
			if len(r.Together) != tc.together {
				t.Fatalf("reported together %v, want %d", r.Together, tc.together)
			}
		})
	}
}

// TestSwissEliminationKeepsTheFieldEven: "积分编排加淘汰……必须注意参赛人数和
// 淘汰人数的比例，并且始终要保持参赛人数为偶数的原则" — once eliminations leave an
// odd field, the lowest-placed survivor goes out with them (no bye) and
// stays out; an odd field from the entry still gets a bye.
func TestSwissEliminationKeepsTheFieldEven(t *testing.T) {
	ps := func(n int) []Participant {
		out := make([]Participant, n)
		for i := range out {
			out[i] = Participant{Number: i + 1, Rank: registry.Rank(10 - i)}
		}
		return out
	}
	win := func(r, b, w int) GameRow {
		return GameRow{Game: Game{Round: r, Board: 1, Black: b, White: w, Result: BlackWins}}
	}
	tests := []struct {
		name    string
		field   int
		games   []GameRow
		byes    []byeRow
		bye     int   // want the bye to
		out     []int // not paired
		players int   // paired
	}{
		{"odd from the entry: a bye", 5, nil, nil, 5, nil, 4},
		{"one eliminated of six leaves five: the lowest survivor goes too", 6,
			[]GameRow{win(1, 1, 4), win(1, 2, 5), win(1, 3, 6)}, nil, 0, []int{3, 4, 5, 6}, 2},
		{"left out once, out for good", 6,
			[]GameRow{win(1, 1, 4), win(1, 2, 5), win(1, 3, 6), win(2, 1, 2)}, nil, 0, []int{2, 3, 4, 5, 6}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sr, err := swissEliminationRound(Event{System: SwissEliminationSystem, Lives: 1}, ps(tc.field), tc.games, tc.byes, 1)
			if tc.players == 0 {
				if err == nil {
					t.Fatalf("paired %v with one player left", sr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if sr.Bye != tc.bye || len(sr.Pairs)*2 != tc.players {
				t.Fatalf("bye %d pairs %v, want bye %d and %d players", sr.Bye, sr.Pairs, tc.bye, tc.players)
			}
			for _, p := range sr.Pairs {
				for _, o := range tc.out {
					if p.Black == o || p.White == o {
						t.Fatalf("%d paired: %v", o, sr.Pairs)
					}
				}
			}
		})
	}
}
