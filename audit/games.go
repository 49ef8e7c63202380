package audit

// The national log holds some 735 000 games: a tournament keeps its games
// by value, round by round in slices indexed by board, instead of a map of
// pointers (a third of the pass's memory before).

type gameKey struct{ round, board int }

// gameState is one game as the log leaves it.
type gameState struct {
	resultEvent  int64
	black, white int32
	result       uint32  // its index in facts.results ("": 0)
	warnings     [2]int8 // black's and white's (saturated: only ≥ 2 is asked)
	flagged      bool    // the record disagrees with the reported result
	hasRecord    bool
	playoff      bool // a playoff game: no part of the wins' count
	exists       bool // the board has a game (slots between boards stay empty)
}

// denseBoards bounds the boards kept in a round's slice; a board beyond
// (never in the registry's own pairings) is kept in a map.
const denseBoards = 1 << 12

// roundGames are one round's games, boards[b-1] board b.
type roundGames struct {
	round  int
	boards []gameState
}

// gameTable is a tournament's games.
type gameTable struct {
	rounds []roundGames
	other  map[gameKey]*gameState // boards outside 1..denseBoards
	n      int
}

// len is the number of games.
func (t *gameTable) len() int { return t.n }

// get is the game at k (nil: none); the pointer holds until the next add.
func (t *gameTable) get(k gameKey) *gameState {
	if k.board < 1 || k.board > denseBoards {
		return t.other[k]
	}
	for i := range t.rounds {
		if r := &t.rounds[i]; r.round == k.round {
			if k.board > len(r.boards) || !r.boards[k.board-1].exists {
				return nil
			}
			return &r.boards[k.board-1]
		}
	}
	return nil
}

// add returns the game at k, an empty one added when there is none.
func (t *gameTable) add(k gameKey) *gameState {
	if g := t.get(k); g != nil {
		return g
	}
	t.n++
	if k.board < 1 || k.board > denseBoards {
		if t.other == nil {
			t.other = map[gameKey]*gameState{}
		}
		g := &gameState{exists: true}
		t.other[k] = g
		return g
	}
	var r *roundGames
	for i := range t.rounds {
		if t.rounds[i].round == k.round {
			r = &t.rounds[i]
		}
	}
	if r == nil {
		t.rounds = append(t.rounds, roundGames{round: k.round})
		r = &t.rounds[len(t.rounds)-1]
	}
	for len(r.boards) < k.board {
		r.boards = append(r.boards, gameState{})
	}
	g := &r.boards[k.board-1]
	g.exists = true
	return g
}

// reserve makes room for boards 1..n of round (a pairing's), so that the
// round's slice is allocated once at its size.
func (t *gameTable) reserve(round, n int) {
	n = min(n, denseBoards)
	for i := range t.rounds {
		if r := &t.rounds[i]; r.round == round {
			if cap(r.boards) < n {
				r.boards = append(make([]gameState, 0, n), r.boards...)
			}
			return
		}
	}
	t.rounds = append(t.rounds, roundGames{round: round, boards: make([]gameState, 0, n)})
}

// set puts g at k, replacing any game there.
func (t *gameTable) set(k gameKey, g gameState) {
	g.exists = true
	*t.add(k) = g
}

// each calls fn with every game, round by round in order of first
// appearance, board by board.
func (t *gameTable) each(fn func(k gameKey, g *gameState)) {
	for i := range t.rounds {
		r := &t.rounds[i]
		for b := range r.boards {
			if r.boards[b].exists {
				fn(gameKey{r.round, b + 1}, &r.boards[b])
			}
		}
	}
	for k, g := range t.other {
		fn(k, g)
	}
}

// warnings8 is a warning count in a byte, saturated.
func warnings8(w [2]int) [2]int8 {
	var out [2]int8
	for i, n := range w {
		out[i] = int8(max(-128, min(127, n)))
	}
	return out
}

// code is result's index in f.results, added when new (a game keeps the
// index, not the string: there are a handful of results and 735 000 games).
func (f *facts) code(result string) uint32 {
	if result == "" {
		return 0
	}
	if i, ok := f.resultCodes[result]; ok {
		return i
	}
	if len(f.results) == 0 {
		f.results = []string{""}
	}
	if f.resultCodes == nil {
		f.resultCodes = map[string]uint32{}
	}
	i := uint32(len(f.results))
	f.results = append(f.results, result)
	f.resultCodes[result] = i
	return i
}

// intern returns s as a string kept once (results repeat on every game).
// codeOf is f.code of a raw string value (payload.quoted), found without
// copying its text when it has been seen (a result row each game).
func (f *facts) codeOf(v []byte) uint32 {
	if t, ok := plainText(v); ok && len(t) > 0 {
		if i, ok := f.resultCodes[string(t)]; ok { // no copy for a lookup
			return i
		}
	}
	return f.code(text(v))
}

func (f *facts) intern(s string) string {
	if v, ok := f.strs[s]; ok {
		return v
	}
	if f.strs == nil {
		f.strs = map[string]string{}
	}
	f.strs[s] = s
	return s
}

// participant is one participant number of a tournament.
type participant struct {
	player    int64 // 0: a guest (no registered player)
	known     bool  // the number was added (tournament.participant_added)
	withdrawn bool
	rank      rank8 // the rank entered (0: none)
}

// participants are a tournament's participants by number, in a slice
// indexed by number instead of three maps.
type participants struct {
	dense []participant // dense[n-1] is number n
	other map[int]*participant
	n     int // numbers added
}

// get is number n (the zero participant when unknown).
func (ps *participants) get(n int) participant {
	if n >= 1 && n <= denseBoards*4 {
		if n <= len(ps.dense) {
			return ps.dense[n-1]
		}
		return participant{}
	}
	if p := ps.other[n]; p != nil {
		return *p
	}
	return participant{}
}

// at is number n's slot, made when there is none.
func (ps *participants) at(n int) *participant {
	if n >= 1 && n <= denseBoards*4 {
		for len(ps.dense) < n {
			ps.dense = append(ps.dense, participant{})
		}
		return &ps.dense[n-1]
	}
	if ps.other == nil {
		ps.other = map[int]*participant{}
	}
	p := ps.other[n]
	if p == nil {
		p = &participant{}
		ps.other[n] = p
	}
	return p
}

// add records number n as player's (0: a guest).
func (ps *participants) add(n int, player int64) *participant {
	p := ps.at(n)
	if !p.known {
		p.known = true
		ps.n++
	}
	p.player = player
	return p
}

// len is how many numbers were added.
func (ps *participants) len() int { return ps.n }

// each calls fn with every number added and its player.
func (ps *participants) each(fn func(n int, player int64)) {
	for i, p := range ps.dense {
		if p.known {
			fn(i+1, p.player)
		}
	}
	for n, p := range ps.other {
		if p.known {
			fn(n, p.player)
		}
	}
}

// playerIndex maps player ids to their index in facts.pl: a slice by id
// while the ids are dense (the registry's count up from 1), a map beyond.
type playerIndex struct {
	dense []int32 // dense[id] is the index + 1 (0: none)
	other map[int64]int32
	n     int
}

func (x *playerIndex) get(id int64) (int32, bool) {
	if id >= 0 && id < int64(len(x.dense)) && x.dense[id] != 0 {
		return x.dense[id] - 1, true
	}
	i, ok := x.other[id]
	return i, ok
}

// put adds id (not yet in x) at index i.
func (x *playerIndex) put(id int64, i int32) {
	x.n++
	if id >= 0 && id < int64(max(1<<16, 4*x.n)) {
		for int64(len(x.dense)) <= id {
			x.dense = append(x.dense, 0)
		}
		x.dense[id] = i + 1
		return
	}
	if x.other == nil {
		x.other = map[int64]int32{}
	}
	x.other[id] = i
}

// each calls fn with every id and its index.
func (x *playerIndex) each(fn func(id int64, i int32)) {
	for id, i := range x.dense {
		if i != 0 {
			fn(int64(id), i-1)
		}
	}
	for id, i := range x.other {
		fn(id, i)
	}
}
