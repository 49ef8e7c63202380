package book

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/dankyu/dankyu/access"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// UnknownStart is where a player entered without any rank starts: 15 kyu,
// with the newcomer's wide uncertainty, so his first games place him.
const UnknownStart = 600

// Book keeps the registry's ratings in the store's database.
type Book struct {
	store   *ledger.Store
	unknown float64
	// policy decides the staff's acts (tuning); they are staff-only
	// capabilities, which look at no agency's standing.
	policy *access.Policy
}

// New returns the book over the store. It rates with the latest version of
// the registry's parameters (rating_params, see Tune), the core's
// calibrated defaults (ratings.DefaultBayes) until the registry has tuned.
func New(store *ledger.Store) *Book {
	return &Book{store: store, unknown: UnknownStart, policy: access.New(nil)}
}

// lockRatings serialises rating computations: two events finishing at
// once would otherwise each start from the beliefs before the other.
func lockRatings(ctx context.Context, tx *ledger.Tx) error {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('dankyu.ratings', 0))`); err != nil {
		return fmt.Errorf("lock ratings: %w", err)
	}
	return nil
}

// identityOf is the stable key of an entrant: a registered player by id,
// a guest by EGD PIN, else by country and name.
func identityOf(e tournaments.RatingEntrant) string {
	switch {
	case e.PlayerID != 0:
		return "p:" + strconv.FormatInt(e.PlayerID, 10)
	case e.EGDPin != "":
		return "egd:" + e.EGDPin
	}
	return "g:" + strings.ToUpper(strings.TrimSpace(e.Country)) + ":" + strings.Join(strings.Fields(e.Name), " ")
}

// member is one rated person in a computation.
type member struct {
	id       int64 // rating_players.id
	identity string
	entrant  tournaments.RatingEntrant
	province string
	games    int // rated games so far
}

// engine feeds events to the core, round by round.
type engine struct {
	params  Params
	sys     *ratings.Bayes
	index   map[string]int32
	members []member
}

// entrantsOf lists the distinct entrants of games in order of appearance.
func entrantsOf(games []tournaments.RatingGame) ([]tournaments.RatingEntrant, map[string]int32) {
	var out []tournaments.RatingEntrant
	index := map[string]int32{}
	for i := range games {
		for _, e := range []tournaments.RatingEntrant{games[i].Black, games[i].White} {
			k := identityOf(e)
			if _, ok := index[k]; !ok {
				index[k] = int32(len(out))
				out = append(out, e)
			}
		}
	}
	return out, index
}

// dayOf is a date as the core counts days.
func dayOf(t time.Time) int32 { return int32(t.Unix() / 86400) }

// rankOf is an entry rank on the GoR scale.
func rankOf(r registry.Rank) ratings.Rank {
	if r == registry.NoRank {
		return ratings.Rank{}
	}
	return ratings.Rank{GoR: ratings.GradeGoR(int(r)), Known: true}
}

// advantageOf states the registry's stones and komi for the core's one
// rule (ratings.StonesToBlack): an even game is played at the event's
// komi; handicap 1 is the no-komi game (half a stone); h >= 2 stones are
// given with the customary 0.5 komi back (h - 1/2 stones).
func advantageOf(handicap int, komi float64) (int, float64) {
	switch {
	case handicap <= 0:
		return 0, komi
	case handicap == 1:
		return 0, 0
	}
	return handicap, 0.5
}

func (e *engine) game(g *tournaments.RatingGame) ratings.Game {
	h, komi := advantageOf(g.Handicap, g.Komi)
	w := byte('D')
	switch g.Result {
	case tournaments.BlackWins:
		w = 'B'
	case tournaments.WhiteWins:
		w = 'W'
	}
	return ratings.Game{Day: dayOf(g.Date), Event: strconv.FormatInt(g.Tournament, 10), Round: strconv.Itoa(g.Round),
		Black: e.index[identityOf(g.Black)], White: e.index[identityOf(g.White)],
		BlackRank: rankOf(g.Black.Rank), WhiteRank: rankOf(g.White.Rank),
		Handicap: h, Komi: komi, HasKomi: true, Winner: w}
}

// played is a player's part in one event.
type played struct {
	p     int32
	games int
	wins  float64
}

// rateEvent rates one event's games (in round order), each round from the
// beliefs before it, and returns its players in order of appearance.
func (e *engine) rateEvent(games []tournaments.RatingGame) []played {
	var out []played
	at := map[int32]int{}
	take := func(p int32, score float64) {
		k, ok := at[p]
		if !ok {
			k = len(out)
			at[p] = k
			out = append(out, played{p: p})
		}
		out[k].games++
		out[k].wins += score
		e.members[p].games++
	}
	batch := make([]ratings.Game, 0, 64)
	for i := 0; i < len(games); {
		j := i + 1
		for j < len(games) && games[j].Round == games[i].Round {
			j++
		}
		batch = batch[:0]
		for k := i; k < j; k++ {
			g := e.game(&games[k])
			take(g.Black, g.Score())
			take(g.White, 1-g.Score())
			batch = append(batch, g)
		}
		e.sys.Update(batch)
		i = j
	}
	return out
}

// Player is a rated person's identity.
type Player struct {
	RatingID int64  // the book's id, stable for guests too
	PlayerID int64  // 0 for a guest
	Name     string // as last entered
	Country  string
	EGDPin   string
	Province string // province code of a registered player
}

// load ensures a row for every entrant and returns the engine with their
// stored beliefs (fresh ones when reset, for a recompute).
func (b *Book) load(ctx context.Context, tx *ledger.Tx, entrants []tournaments.RatingEntrant, index map[string]int32, reset bool) (*engine, error) {
	params, err := ParamsTx(ctx, tx)
	if err != nil {
		return nil, err
	}
	n := len(entrants)
	idents, pins, names, countries, provinces := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	pids := make([]*int64, n)
	for i, e := range entrants {
		idents[i], pins[i], names[i], countries[i] = identityOf(e), e.EGDPin, e.Name, strings.ToUpper(e.Country)
		if e.PlayerID != 0 {
			pl, err := registry.PlayerTx(ctx, tx.Tx, e.PlayerID, false)
			if err != nil {
				return nil, fmt.Errorf("rated player %d: %w", e.PlayerID, err)
			}
			pid := e.PlayerID
			pids[i], names[i], provinces[i] = &pid, pl.Name, pl.ProvinceCode
		}
	}
	rows, err := tx.Query(ctx, `INSERT INTO rating_players (identity, player_id, egd_pin, name, country, province)
		SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[])
		ON CONFLICT (identity) DO UPDATE SET
			egd_pin = CASE WHEN EXCLUDED.egd_pin <> '' THEN EXCLUDED.egd_pin ELSE rating_players.egd_pin END,
			name = EXCLUDED.name, country = EXCLUDED.country, province = EXCLUDED.province
		RETURNING id, identity, mean, variance, last_day, rank_gor, seen, games`, idents, pids, pins, names, countries, provinces)
	if err != nil {
		return nil, ledger.PgErr(err, "rated players")
	}
	defer rows.Close()
	e := &engine{params: params, sys: ratings.NewBayes(n, b.unknown, params.Bayes), index: index, members: make([]member, n)}
	for rows.Next() {
		var (
			id, games int
			ident     string
			st        ratings.BayesState
			rank      *float64
		)
		if err := rows.Scan(&id, &ident, &st.Mean, &st.Var, &st.LastDay, &rank, &st.Seen, &games); err != nil {
			return nil, fmt.Errorf("rated players: %w", err)
		}
		p := index[ident]
		st.Rank = math.NaN()
		if rank != nil {
			st.Rank = *rank
		}
		if reset {
			st, games = ratings.BayesState{Rank: math.NaN()}, 0
		}
		e.sys.SetState(p, st)
		e.members[p] = member{id: int64(id), identity: ident, entrant: entrants[p], province: provinces[p], games: games}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("rated players: %w", err)
	}
	rows.Close()
	if !reset {
		if err := loadGrades(ctx, tx, e.sys); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// save writes the beliefs of players ps as they stand.
func (e *engine) save(ctx context.Context, tx *ledger.Tx, now time.Time, ps []int32) error {
	n := len(ps)
	ids, games, days := make([]int64, n), make([]int32, n), make([]int32, n)
	means, vars := make([]float64, n), make([]float64, n)
	ranks := make([]*float64, n)
	for i, p := range ps {
		st := e.sys.State(p)
		ids[i], games[i], days[i], means[i], vars[i] = e.members[p].id, int32(e.members[p].games), st.LastDay, st.Mean, st.Var
		if !math.IsNaN(st.Rank) {
			r := st.Rank
			ranks[i] = &r
		}
	}
	_, err := tx.Exec(ctx, `UPDATE rating_players r SET mean = u.mean, variance = u.variance, last_day = u.last_day,
			rank_gor = u.rank_gor, seen = true, games = u.games, updated_at = $7
		FROM unnest($1::bigint[], $2::float8[], $3::float8[], $4::integer[], $5::float8[], $6::integer[]) AS u(id, mean, variance, last_day, rank_gor, games)
		WHERE r.id = u.id`, ids, means, vars, days, ranks, games, now)
	if err != nil {
		return ledger.PgErr(err, "save ratings")
	}
	return saveGrades(ctx, tx, e.sys)
}

// historyRows are the ratings after one event, for insertion.
type historyRows struct {
	player           []int64
	event            []int64
	name             []string
	date             []time.Time
	seq              []int64
	rating, sd, wins []float64
	games            []int32
}

func (h *historyRows) add(e *engine, g *tournaments.RatingGame, seq int64, ps []played) {
	for _, p := range ps {
		st := e.sys.State(p.p)
		h.player = append(h.player, e.members[p.p].id)
		h.event = append(h.event, g.Tournament)
		h.name = append(h.name, g.EventName)
		h.date = append(h.date, g.Date)
		h.seq = append(h.seq, seq)
		h.rating = append(h.rating, st.Mean)
		h.sd = append(h.sd, math.Sqrt(st.Var))
		h.wins = append(h.wins, p.wins)
		h.games = append(h.games, int32(p.games))
	}
}

func (h *historyRows) insert(ctx context.Context, tx *ledger.Tx, kind string, run int64) error {
	_, err := tx.Exec(ctx, `INSERT INTO rating_history (rating_player_id, tournament_id, event_name, event_date, seq, rating, sd, games, wins, computed_by, run_id)
		SELECT u.*, $10, $11 FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::date[], $5::bigint[], $6::float8[], $7::float8[], $8::integer[], $9::float8[]) AS u`,
		h.player, h.event, h.name, h.date, h.seq, h.rating, h.sd, h.games, h.wins, kind, run)
	if err != nil {
		return ledger.PgErr(err, "rating history")
	}
	return nil
}

// Run is the record of one rating computation.
type Run struct {
	ID         int64
	Kind       string // incremental or recompute
	Tournament int64  // the event of an incremental run
	Events     int
	Games      int
	Players    int
	At         time.Time
	By         string
}

func (b *Book) insertRun(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, p Params, r Run) (Run, error) {
	params, err := json.Marshal(p.Bayes)
	if err != nil {
		return r, fmt.Errorf("rating parameters: %w", err)
	}
	var tour any
	if r.Tournament != 0 {
		tour = r.Tournament
	}
	r.At, r.By = now, actor.String()
	err = tx.QueryRow(ctx, `INSERT INTO rating_runs (kind, tournament_id, params, events, games, players, run_at, run_by)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`, r.Kind, tour, params, r.Events, r.Games, r.Players, now, r.By).Scan(&r.ID)
	if err != nil {
		return r, ledger.PgErr(err, "rating run")
	}
	return r, nil
}
