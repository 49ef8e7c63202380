package tournaments

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// GameRow is a stored game with the referee's view of its record.
type GameRow struct {
	Game
	HasRecord   bool // an SGF was uploaded (its body is read only for the archive)
	Nigiri      bool
	Adjudicated string // the rules engine's result of the record, e.g. "B+3.5"
	Flagged     bool   // the record disagrees with the reported result: for review
	// FlagCode and FlagParams say why, as a code FlagMessage words in
	// either language (FlagText); FlagReason is the English wording, and
	// all there is for a game flagged before codes were stored.
	FlagCode   string
	FlagParams map[string]string
	FlagReason string
	// ForfeitReason says why a game was forfeited: late, absent,
	// disqualified or withdrawn (art. 22, 23, 28).
	ForfeitReason string
	Confirmed     bool   // the referee confirmed the result: final for the organiser
	ConfirmedBy   string // who confirmed it
	Voided        string // black, white or both: results voided for an arranged game
	VoidedResult  Result // the result before the void
	VoidReason    string
	NigiriHolder  int    // the participant who held the stones, 0 without nigiri
	NigiriGuess   string // odd or even
	WrongColours  bool   // played with the colours swapped, noticed too late to correct
}

// RoundInfo is a paired round.
type RoundInfo struct {
	Round     int
	Seed      int64
	Bye       int
	ByePoints int
	// MoreByes are the round's byes after the first (Bye): an imported
	// event may give several in a round.
	MoreByes []Bye
	Playoff  bool // a playoff round between tied players (art. 27 C)
	Games    []GameRow
	// Together are the pairs of the round that the event's pairing
	// constraint (same club, school, family) could not keep apart; known
	// only on the answer to the pairing (and in its logged payload).
	Together []Pairing
}

// ByePointsOf is what a participant's bye of the round is worth; 0 when
// he has none.
func (r RoundInfo) ByePointsOf(number int) int {
	if r.Bye == number && number != 0 {
		return r.ByePoints
	}
	for _, b := range r.MoreByes {
		if b.Player == number {
			return b.Points
		}
	}
	return 0
}

func (s *Service) games(ctx context.Context, q ledger.Querier, id int64) ([]GameRow, error) {
	rows, err := q.Query(ctx, `SELECT `+gameColumns+` FROM tournament_games WHERE tournament_id = $1 ORDER BY round, board`, id)
	if err != nil {
		return nil, fmt.Errorf("games of tournament %d: %w", id, err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (GameRow, error) { return scanGame(r) })
}

// game reads one game of an event.
func (s *Service) game(ctx context.Context, q ledger.Querier, id int64, round, board int) (GameRow, error) {
	g, err := scanGame(q.QueryRow(ctx, `SELECT `+gameColumns+` FROM tournament_games WHERE tournament_id = $1 AND round = $2 AND board = $3`,
		id, round, board))
	if err != nil {
		return GameRow{}, ledger.PgErr(err, fmt.Sprintf("tournament %d round %d board %d", id, round, board))
	}
	return g, nil
}

// gameColumns are what scanGame reads of a stored game (the record's body
// aside).
const gameColumns = `round, board, black, white, nigiri, handicap, result, black_warnings, white_warnings,
	record <> '', adjudicated, flagged, flag_code, flag_params, flag_reason, forfeit_reason, confirmed_at IS NOT NULL, confirmed_by,
	voided, voided_result, void_reason, coalesce(nigiri_holder, 0), nigiri_guess, wrong_colours`

func scanGame(r pgx.Row) (GameRow, error) {
	var g GameRow
	err := r.Scan(&g.Round, &g.Board, &g.Black, &g.White, &g.Nigiri, &g.Handicap, &g.Result, &g.BlackWarnings, &g.WhiteWarnings,
		&g.HasRecord, &g.Adjudicated, &g.Flagged, &g.FlagCode, &g.FlagParams, &g.FlagReason, &g.ForfeitReason, &g.Confirmed, &g.ConfirmedBy,
		&g.Voided, &g.VoidedResult, &g.VoidReason, &g.NigiriHolder, &g.NigiriGuess, &g.WrongColours)
	return g, err
}

type byeRow struct {
	round, number, points int
}

func (s *Service) byes(ctx context.Context, q ledger.Querier, id int64) ([]byeRow, error) {
	rows, err := q.Query(ctx, `SELECT round, bye, bye_points FROM tournament_rounds WHERE tournament_id = $1 AND bye IS NOT NULL
		UNION ALL SELECT round, number, points FROM tournament_more_byes WHERE tournament_id = $1 ORDER BY 1`, id)
	if err != nil {
		return nil, fmt.Errorf("byes of tournament %d: %w", id, err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (byeRow, error) {
		var b byeRow
		err := r.Scan(&b.round, &b.number, &b.points)
		return b, err
	})
}

// Rounds returns every paired round with its games.
func (s *Service) Rounds(ctx context.Context, id int64) ([]RoundInfo, error) {
	return s.rounds(ctx, s.db, id)
}

func (s *Service) rounds(ctx context.Context, q ledger.Querier, id int64) ([]RoundInfo, error) {
	rows, err := q.Query(ctx, `SELECT round, seed, coalesce(bye, 0), bye_points, playoff FROM tournament_rounds WHERE tournament_id = $1 ORDER BY round`, id)
	if err != nil {
		return nil, fmt.Errorf("rounds of tournament %d: %w", id, err)
	}
	rounds, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (RoundInfo, error) {
		var ri RoundInfo
		err := r.Scan(&ri.Round, &ri.Seed, &ri.Bye, &ri.ByePoints, &ri.Playoff)
		return ri, err
	})
	if err != nil {
		return nil, err
	}
	games, err := s.games(ctx, q, id)
	if err != nil {
		return nil, err
	}
	for _, g := range games {
		if g.Round >= 1 && g.Round <= len(rounds) {
			rounds[g.Round-1].Games = append(rounds[g.Round-1].Games, g)
		}
	}
	more, err := q.Query(ctx, `SELECT round, number, points FROM tournament_more_byes WHERE tournament_id = $1 ORDER BY round, number`, id)
	if err != nil {
		return nil, fmt.Errorf("byes of tournament %d: %w", id, err)
	}
	byes, err := pgx.CollectRows(more, func(r pgx.CollectableRow) (Bye, error) {
		var b Bye
		err := r.Scan(&b.Round, &b.Player, &b.Points)
		return b, err
	})
	if err != nil {
		return nil, fmt.Errorf("byes of tournament %d: %w", id, err)
	}
	for _, b := range byes {
		if b.Round >= 1 && b.Round <= len(rounds) {
			rounds[b.Round-1].MoreByes = append(rounds[b.Round-1].MoreByes, b)
		}
	}
	return rounds, nil
}

// strength turns a rank into a number that grows with strength (30k = 1, 7d = 37).
func strength(r registry.Rank) int {
	switch {
	case r < 0:
		return 31 + int(r)
	case r > 0:
		return 30 + int(r)
	}
	return 0
}

// PairNextRound pairs the next round by the event's system. The previous
// round must be complete. The round's seed (event seed and round) is
// recorded, so pairing the same state again gives the same round.
func (s *Service) PairNextRound(ctx context.Context, actor ledger.Actor, key string, id int64) (RoundInfo, error) {
	return ledger.Mutate(ctx, s.store, actor, key, "PairNextRound", id, func(tx *ledger.Tx, now time.Time) (RoundInfo, error) {
		e, err := s.lockEvent(ctx, tx, actor, id)
		if err != nil {
			return RoundInfo{}, err
		}
		if err := refuseBeforeStart(e, now); err != nil {
			return RoundInfo{}, err
		}
		if n, err := s.playoffRounds(ctx, tx, id); err != nil || n > 0 {
			if err != nil {
				return RoundInfo{}, err
			}
			return RoundInfo{}, ReasonPlayoffStarted.New("event", eventID(id))
		}
		ps, err := s.participants(ctx, tx, id)
		if err != nil {
			return RoundInfo{}, err
		}
		games, err := s.games(ctx, tx, id)
		if err != nil {
			return RoundInfo{}, err
		}
		byes, err := s.byes(ctx, tx, id)
		if err != nil {
			return RoundInfo{}, err
		}
		if g, open := pending(ps, games); open {
			return RoundInfo{}, ReasonResultMissing.New("round", strconv.Itoa(g.Round), "board", strconv.Itoa(g.Board))
		}
		round := e.PairedRounds + 1
		if e.Team && e.Boards == BoardsByRank && round == 1 {
			if ps, err = s.orderBoards(ctx, tx, now, actor, e, ps); err != nil {
				return RoundInfo{}, err
			}
		}
		info := RoundInfo{Round: round, Seed: e.Seed + int64(round)}
		var pairs []Pairing
		switch {
		case e.System == ArenaSystem:
			pairs, err = arenaRound(e, ps, games)
		case e.Team:
			var lineups map[string]map[int]int
			if e.TeamFormat.lineup() {
				if lineups, err = s.lineups(ctx, tx, id, round); err != nil {
					return RoundInfo{}, err
				}
				if t := missingLineup(ps, lineups); t != "" {
					return RoundInfo{}, ReasonLineupMissing.New("team", t, "round", strconv.Itoa(round))
				}
			}
			pairs, info.Bye, err = teamRound(e, ps, games, byes, round, uint64(info.Seed), lineups)
		case e.System == RoundRobinSystem || e.System == DoubleRoundRobinSystem:
			pairs, info.Bye, err = roundRobinRound(e, ps, round)
		case e.System == MultiRoundRobinSystem:
			pairs, info.Bye, err = multiRoundRobinRound(e, ps, round)
		case e.System == MatchSystem:
			pairs, err = matchRound(e, ps, games, round)
		case e.System == SwissEliminationSystem:
			if round > e.Rounds {
				return RoundInfo{}, ReasonAllRoundsPaired.New("event", eventID(id), "rounds", strconv.Itoa(e.Rounds))
			}
			var sr SwissRound
			sr, err = swissEliminationRound(e, ps, games, byes, uint64(info.Seed))
			pairs, info.Bye = sr.Pairs, sr.Bye
			if info.Bye != 0 {
				info.ByePoints = WinPoints
			}
		case e.System == MultiEliminationSystem:
			var sr SwissRound
			sr, err = eliminationRound(ps, games, byes, uint64(info.Seed), e.Lives)
			pairs, info.Bye = sr.Pairs, sr.Bye
		case e.System == SwissSystem || e.System == McMahonSystem:
			if round > e.Rounds {
				return RoundInfo{}, ReasonAllRoundsPaired.New("event", eventID(id), "rounds", strconv.Itoa(e.Rounds))
			}
			state := swissState(e, ps, games, byes)
			if err := avoidKeys(ctx, tx, e, round, ps, state); err != nil {
				return RoundInfo{}, err
			}
			var sr SwissRound
			sr, err = PairSwiss(state, uint64(info.Seed))
			pairs, info.Bye, info.Together = sr.Pairs, sr.Bye, sr.Together
			if info.Bye != 0 {
				info.ByePoints = WinPoints
			}
		case e.System == KnockoutSystem:
			pairs, err = knockoutRound(ps, games, round)
		case e.System == DoubleKnockoutSystem:
			var sr SwissRound
			sr, err = doubleKnockoutRound(ps, games, byes, uint64(info.Seed))
			pairs, info.Bye = sr.Pairs, sr.Bye
		}
		if err != nil {
			return RoundInfo{}, fmt.Errorf("pair round %d of tournament %d: %w", round, id, err)
		}
		var bye any
		if info.Bye != 0 {
			bye = info.Bye
		}
		if _, err := tx.Exec(ctx, `INSERT INTO tournament_rounds (tournament_id, round, seed, paired_at, bye, bye_points) VALUES ($1, $2, $3, $4, $5, $6)`,
			id, round, info.Seed, now, bye, info.ByePoints); err != nil {
			return RoundInfo{}, ledger.PgErr(err, "record round")
		}
		gone := map[int]bool{}
		for _, p := range ps {
			gone[p.Number] = p.Withdrawn
		}
		for i, p := range pairs {
			g := GameRow{Game: Game{Round: round, Board: i + 1, Black: p.Black, White: p.White}, Nigiri: p.Nigiri}
			if e.Team { // a withdrawn member's game is a forfeit from the start
				switch {
				case gone[p.Black] && gone[p.White]:
					g.Result, g.ForfeitReason = BothLose, string(WithdrawnForfeit)
				case gone[p.Black]:
					g.Result, g.ForfeitReason = WhiteForfeit, string(WithdrawnForfeit)
				case gone[p.White]:
					g.Result, g.ForfeitReason = BlackForfeit, string(WithdrawnForfeit)
				}
			}
			if _, err := tx.Exec(ctx, `INSERT INTO tournament_games (tournament_id, round, board, black, white, nigiri, result, forfeit_reason)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
				id, round, g.Board, g.Black, g.White, g.Nigiri, g.Result, g.ForfeitReason); err != nil {
				return RoundInfo{}, ledger.PgErr(err, "record pairing")
			}
			info.Games = append(info.Games, g)
		}
		err = ledger.Append(ctx, tx, now, actor, "tournament", strconv.FormatInt(id, 10),
			withTogether(NewRoundPairedPayload(BulkRound{Round: round, Seed: info.Seed, Bye: info.Bye}, pairs), info.Together))
		return info, err
	})
}

// pending finds a game still waiting for its result. A round-robin game of
// a withdrawn player needs none: the withdrawal rules decide it.
func pending(ps []Participant, games []GameRow) (GameRow, bool) {
	gone := map[int]bool{}
	for _, p := range ps {
		if p.Withdrawn {
			gone[p.Number] = true
		}
	}
	for _, g := range games {
		if !g.Result.Decided() && !gone[g.Black] && !gone[g.White] {
			return g, true
		}
	}
	return GameRow{}, false
}

func roundRobinRound(e Event, ps []Participant, round int) ([]Pairing, int, error) {
	ps = entered(ps)
	sched, err := RoundRobin(len(ps), e.System == DoubleRoundRobinSystem)
	if err != nil {
		return nil, 0, err
	}
	if round > len(sched) {
		return nil, 0, ReasonScheduleComplete.New("rounds", strconv.Itoa(len(sched)))
	}
	var pairs []Pairing
	bye := 0
	for _, p := range sched[round-1] {
		if p.Bye() {
			bye = p.A
			continue
		}
		// a withdrawn player's games are still scheduled: they count as forfeits or void
		pairs = append(pairs, Pairing{Black: ps[p.A-1].Number, White: ps[p.B-1].Number})
	}
	if bye != 0 {
		bye = ps[bye-1].Number
	}
	return pairs, bye, nil
}

// entered is the field as drawn: every participant but those who withdrew
// before the first round, for whom the draw is made again (art. 28.1).
func entered(ps []Participant) []Participant {
	out := make([]Participant, 0, len(ps))
	for _, p := range ps {
		if !p.Withdrawn || p.WithdrewAfter > 0 {
			out = append(out, p)
		}
	}
	return out
}

// swissState turns stored games into the pairing state.
func swissState(e Event, ps []Participant, games []GameRow, byes []byeRow) []SwissPlayer {
	starts := mcMahonStarts(ps)
	idx := map[int]*SwissPlayer{}
	var out []SwissPlayer
	for _, p := range ps {
		if p.Withdrawn {
			continue // no longer paired; results stand
		}
		sp := SwissPlayer{ID: p.Number, Strength: strength(p.Rank), Met: map[int]bool{}}
		if e.System == McMahonSystem {
			sp.Score = starts[p.Number]
		}
		out = append(out, sp)
	}
	for i := range out {
		idx[out[i].ID] = &out[i]
	}
	for _, g := range games {
		bp, wp := g.Result.Points()
		if b := idx[g.Black]; b != nil {
			b.Score += bp
			b.Colour++
			b.Met[g.White] = true
		}
		if w := idx[g.White]; w != nil {
			w.Score += wp
			w.Colour--
			w.Met[g.Black] = true
		}
	}
	for _, b := range byes {
		if p := idx[b.number]; p != nil {
			p.Score += b.points
			p.HadBye = true
		}
	}
	return out
}

// knockoutRound replays the bracket: the first round by seed (rank, then
// number; the top seeds get the byes of an incomplete bracket), each later
// round from the winners of the one before, in bracket order.
func knockoutRound(ps []Participant, games []GameRow, round int) ([]Pairing, error) {
	var seeds []int
	for _, p := range bySeed(entered(ps)) {
		seeds = append(seeds, p.Number)
	}
	slots, champion, err := replayBracket(seeds, round, func(k int, p Pair) (int, error) { return winnerOf(games, k, p) })
	switch {
	case err != nil:
		return nil, err
	case champion != 0:
		return nil, ReasonKnockoutDecided.New("winner", strconv.Itoa(champion))
	}
	var pairs []Pairing
	for _, p := range slots {
		pairs = append(pairs, Pairing{Black: p.A, White: p.B})
	}
	return pairs, nil
}

// doubleKnockoutRound pairs the survivors of a double elimination.
func doubleKnockoutRound(ps []Participant, games []GameRow, byes []byeRow, seed uint64) (SwissRound, error) {
	return eliminationRound(ps, games, byes, seed, 2)
}

// eliminationRound pairs a round of an elimination in which a player is
// out after lives losses.
func eliminationRound(ps []Participant, games []GameRow, byes []byeRow, seed uint64, lives int) (SwissRound, error) {
	seeds := bySeed(ps)
	state := map[int]*ElimPlayer{}
	var players []ElimPlayer
	for i, p := range seeds {
		players = append(players, ElimPlayer{ID: p.Number, Seed: i + 1, Met: map[int]bool{}})
		if p.Withdrawn {
			players[i].Losses = lives
		}
	}
	for i := range players {
		state[players[i].ID] = &players[i]
	}
	for _, g := range games {
		b, w := state[g.Black], state[g.White]
		b.Met[g.White], w.Met[g.Black] = true, true
		b.Colour++
		w.Colour--
		switch {
		case g.Result.Winner() == 'b':
			w.Losses++
		case g.Result.Winner() == 'w':
			b.Losses++
		case g.Result.BothLost():
			b.Losses++
			w.Losses++
		default:
			return SwissRound{}, ReasonNeedsWinner.New("round", strconv.Itoa(g.Round), "board", strconv.Itoa(g.Board), "result", string(g.Result))
		}
	}
	for _, by := range byes {
		if p := state[by.number]; p != nil {
			p.HadBye = true
		}
	}
	r, winner, err := EliminationRound(players, lives, seed)
	if err != nil {
		return SwissRound{}, err
	}
	if winner != 0 {
		return SwissRound{}, ReasonEliminationWon.New("winner", strconv.Itoa(winner), "lives", strconv.Itoa(lives))
	}
	return r, nil
}

func winnerOf(games []GameRow, round int, p Pair) (int, error) {
	for _, g := range games {
		if g.Round != round || !((g.Black == p.A && g.White == p.B) || (g.Black == p.B && g.White == p.A)) {
			continue
		}
		switch g.Result.Winner() {
		case 'b':
			return g.Black, nil
		case 'w':
			return g.White, nil
		}
		return 0, ReasonNeedsWinner.New("round", strconv.Itoa(round), "board", strconv.Itoa(g.Board), "result", string(g.Result))
	}
	return 0, ReasonNoGameBetween.New("round", strconv.Itoa(round), "a", strconv.Itoa(p.A), "b", strconv.Itoa(p.B))
}

// bySeed ranks a field for a bracket: strongest first, then by number.
func bySeed(ps []Participant) []Participant {
	seeds := slices.Clone(ps)
	slices.SortStableFunc(seeds, func(a, b Participant) int {
		if c := cmp.Compare(strength(b.Rank), strength(a.Rank)); c != 0 {
			return c
		}
		return cmp.Compare(a.Number, b.Number)
	})
	return seeds
}

// mcMahonStarts gives each participant's McMahon starting score: one band
// (a win, 2 points) per rank above the weakest entrant.
func mcMahonStarts(ps []Participant) map[int]int {
	low := math.MaxInt
	for _, p := range ps {
		low = min(low, strength(p.Rank))
	}
	starts := make(map[int]int, len(ps))
	for _, p := range ps {
		starts[p.Number] = 2 * (strength(p.Rank) - low)
	}
	return starts
}

// ResultInput is a reported result, with the record when there is one.
type ResultInput struct {
	Round, Board  int
	Result        string
	BlackWarnings int
	WhiteWarnings int
	SGF           string
	// ForfeitReason says why, with a forfeit or both_lose: late, absent,
	// disqualified or withdrawn ("both late" is both_lose, late).
	ForfeitReason string
	// ColoursSwapped: the players took each other's colours, noticed at
	// move NoticedAtMove (0: after the game). Noticed by move 10 it was
	// corrected and the game went on with the assigned colours; later, the
	// result stands as played (art. 17): Result and the warnings are then
	// given by the colours the players actually had, and stored by seat.
	ColoursSwapped bool
	NoticedAtMove  int
}
