package audit

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// MinIdenticalMoves is the length from which two games with the same move
// sequence are no coincidence (a shared opening of a few dozen moves is).
const MinIdenticalMoves = 60

// more is what the indicators added after the first twenty gather in the
// same pass over the log.
type more struct {
	appraiserAgency map[int64]string              // appraiser → the agency that recommended it
	appraisals      map[int64]map[string][]Item   // appraiser → issuer → its appraisal certificates of the period
	imported        []int64                       // tournaments imported up to the position
	created         map[string]time.Time          // agency → when it was created
	earlier         map[string]map[int]bool       // agency → audit years before this one (1: the previous) with activity
	yearStarts      []time.Time                   // yearStarts[k]: the start of the audit year k years before this one
	firstAt         time.Time                     // the log's first event
	dan             map[string][]ratedCertificate // issuer → its dan certificates of the period
	records         []tournaments.RecordMoves     // the recorded games of the period's events, as of the position
	fallen          map[string]fallenEvidence     // certificate number → its evidence fell away, still standing
}

// ratedCertificate is a dan certificate of the period, for the rating indicator.
type ratedCertificate struct {
	number    string
	player    int64
	rank      registry.Rank
	issueDate string
	item      Item
}

func newMore() more {
	return more{appraiserAgency: map[int64]string{}, appraisals: map[int64]map[string][]Item{}, created: map[string]time.Time{},
		earlier: map[string]map[int]bool{}, dan: map[string][]ratedCertificate{}, fallen: map[string]fallenEvidence{}}
}

// saw notes the log's first event (inactive years are counted back no
// further than the log goes).
func (f *facts) saw(e ledger.LoggedEvent) {
	if f.firstAt.IsZero() || e.At.Before(f.firstAt) {
		f.firstAt = e.At
	}
}

// yearsBefore is how many audit years before this one t falls in (1: the
// previous year); t is before the period.
func (f *facts) yearsBefore(t time.Time) int {
	if len(f.yearStarts) == 0 {
		f.yearStarts = append(f.yearStarts, f.period.Start)
	}
	for k := 1; ; k++ {
		if k == len(f.yearStarts) {
			f.yearStarts = append(f.yearStarts, f.period.Start.In(ledger.ChinaTime).AddDate(-k, 0, 0).UTC())
		}
		if !t.Before(f.yearStarts[k]) {
			return k
		}
	}
}

// touchEarlier records activity of agency in an audit year before this one.
func (f *facts) touchEarlier(agency string, e ledger.LoggedEvent) {
	years := f.earlier[agency]
	if years == nil {
		years = map[int]bool{}
		f.earlier[agency] = years
	}
	years[f.yearsBefore(e.At)] = true
}

// evidence counts an application of the period filed without what its basis
// rests on: a tournament or national basis without its event or record
// reference, an appraisal without an appraiser (the service refuses both
// today; imported and older data have them).
func (f *facts) evidence(agency string, e ledger.LoggedEvent, a appState, eventRef, recordRef string) {
	var missing string
	switch a.basis {
	case "tournament", "national_result", "national_championship":
		switch {
		case strings.TrimSpace(eventRef) == "" && strings.TrimSpace(recordRef) == "":
			missing = "no event or record reference"
		case strings.TrimSpace(eventRef) == "":
			missing = "no event reference"
		case strings.TrimSpace(recordRef) == "":
			missing = "no record reference"
		}
	case "appraisal":
		if a.appraiser <= 0 {
			missing = "no appraiser"
		}
	}
	if missing != "" {
		f.count(agency, KeyApplicationsWithoutEvidence, Item{Kind: "application", Ref: e.EntityID, EventID: e.ID, Note: a.basis + ": " + missing})
	}
}

// appraised notes a dan certificate of the period by appraisal: who signed
// it, and whether the appraiser is another agency's.
func (f *facts) appraised(issuer string, appraiser int64, it Item) {
	if appraiser <= 0 {
		return
	}
	it.Note = "appraiser " + strconv.FormatInt(appraiser, 10)
	by := f.appraisals[appraiser]
	if by == nil {
		by = map[string][]Item{}
		f.appraisals[appraiser] = by
	}
	by[issuer] = append(by[issuer], it)
	if home := f.appraiserAgency[appraiser]; home != "" && home != issuer {
		it.Note += " of agency " + home
		f.count(issuer, KeyForeignAppraisers, it)
	}
}

func (f *facts) danIssued(issuer string, it Item, player int64, rank registry.Rank, issueDate string) {
	f.dan[issuer] = append(f.dan[issuer], ratedCertificate{number: it.Ref, player: player, rank: rank, issueDate: issueDate, item: it})
}

// readTables reads, after the pass over the log, the rows the log does not
// carry: the games of imported events and the move sequences of the
// recorded games of the period's events.
func (f *facts) readTables(ctx context.Context, q ledger.Querier) error {
	// only the imported events that end in the period count their games
	var imported []int64
	for _, id := range f.imported {
		if t := f.events[id]; t != nil && f.endsInPeriod(t) {
			imported = append(imported, id)
		}
	}
	games, err := tournaments.GamesOf(ctx, q, imported)
	if err != nil {
		return err
	}
	for _, g := range games {
		t := f.events[g.Tournament]
		if t == nil {
			continue
		}
		k := gameKey{g.Round, g.Board}
		if logged := t.games.get(k); logged != nil {
			// a result recorded after the import: the log has the latest word
			if logged.black == 0 && logged.white == 0 {
				logged.black, logged.white = int32(g.Black), int32(g.White)
			}
			continue
		}
		t.games.set(k, gameState{black: int32(g.Black), white: int32(g.White), result: f.code(g.Result), resultEvent: t.imported,
			warnings: warnings8([2]int{g.BlackWarnings, g.WhiteWarnings}), flagged: g.Flagged})
	}
	var recorded []int64
	for id, t := range f.events {
		if !f.endsInPeriod(t) {
			continue
		}
		has := false
		t.games.each(func(_ gameKey, g *gameState) { has = has || g.hasRecord })
		if has {
			recorded = append(recorded, id)
		}
	}
	slices.Sort(recorded)
	if !f.needs(KeyIdenticalMoves) && !f.needs(KeyNearCopies) {
		return nil // a drill-down of another indicator: no record is read
	}
	rs, err := tournaments.RecordPoints(ctx, q, recorded)
	if err != nil {
		return err
	}
	f.records = rs[:0]
	for _, r := range rs {
		if g := f.events[r.Tournament].games.get(gameKey{r.Round, r.Board}); g == nil || !g.hasRecord {
			continue // recorded after the position
		}
		f.records = append(f.records, r)
	}
	// compared in the order of the games (an earlier game is the original)
	slices.SortFunc(f.records, func(a, b tournaments.RecordMoves) int {
		if a.Tournament != b.Tournament {
			return int(a.Tournament - b.Tournament)
		}
		if a.Round != b.Round {
			return a.Round - b.Round
		}
		return a.Board - b.Board
	})
	return nil
}

func (f *facts) endsInPeriod(t *tournamentState) bool {
	end := t.facts.End
	return !end.Before(dateOf(f.period.Start)) && end.Before(dateOf(f.period.End))
}

func gameItem(id int64, k gameKey, g *gameState, note string) Item {
	return Item{Kind: "game", Ref: fmt.Sprintf("%d/%d/%d", id, k.round, k.board), Link: fmt.Sprintf("/tournaments/%d", id),
		EventID: g.resultEvent, Note: note}
}

// gameRef names one game: its tournament, round and board.
type gameRef struct {
	event        int64
	round, board int32
}

// pairGame is one decisive game between two registered players.
type pairGame struct {
	ref     gameRef
	row     int64 // its result's event-log row
	winner  int64
	forfeit bool
}

// pairAgg is what the games of one pair of players add up to (kept small:
// a national year has hundreds of thousands of pairs).
type pairAgg struct {
	last       pairGame    // the latest game, by its result's row
	forfeit    [2]pairGame // the latest forfeit win of each of key[0], key[1] (row 0: none)
	firstEvent int64
	manyEvents bool // they met in two events or more
	wins       [2]int32
	games      int32
}

func (a *pairAgg) add(key [2]int64, g pairGame) {
	side := 0
	if g.winner == key[1] {
		side = 1
	}
	if a.games == 0 {
		a.firstEvent = g.ref.event
	} else if g.ref.event != a.firstEvent {
		a.manyEvents = true
	}
	a.games++
	a.wins[side]++
	if a.games == 1 || g.row > a.last.row {
		a.last = g
	}
	if g.forfeit && g.row > a.forfeit[side].row {
		a.forfeit[side] = g
	}
}

// pairRow is one decisive game between two registered players, for the
// pair indicators: the national year has some 735 000 games, so the games
// are listed compactly and sorted by pair rather than gathered in a map of
// pairs.
type pairRow struct {
	key     [2]int64
	event   int64
	row     int64 // its result's event-log row
	round   int32
	board   int32
	ranks   [2]rank8 // the ranks entered of key[0] and key[1]
	side    uint8    // the winner: key[side]
	forfeit bool
	judged  bool // the pair met in two events or more (set once the rows are sorted)
}

func (r *pairRow) game() pairGame {
	return pairGame{ref: gameRef{r.event, r.round, r.board}, row: r.row, winner: r.key[r.side], forfeit: r.forfeit}
}

// finishMore measures the later indicators once the whole history is read.
// (Nothing here depends on the order maps are walked in: every count is a
// sum, each pair's games are judged by their log rows, and the drill-down
// sorts its items.)
func (f *facts) finishMore() {
	// what reads the games beyond this pass, before they are dropped
	f.thinQualifying()
	n := 0
	for _, t := range f.events {
		if f.endsInPeriod(t) {
			n += t.games.len()
		}
	}
	rows := make([]pairRow, 0, n) // sized once: no copies left behind by growth
	for id, t := range f.events {
		if !f.endsInPeriod(t) {
			continue
		}
		org := t.facts.Organiser
		t.games.each(func(k gameKey, g *gameState) {
			if g.flagged {
				f.count(org, KeyRecordsDisagree, gameItem(id, k, g, f.results[g.result]))
			}
			var winner int64
			pb, pw := t.players.get(int(g.black)), t.players.get(int(g.white))
			b, w := pb.player, pw.player
			switch tournaments.Result(f.results[g.result]).Winner() {
			case 'b':
				if g.warnings[0] >= 2 {
					f.count(org, KeyWinnerTwoWarnings, gameItem(id, k, g, f.results[g.result]+", black had two warnings"))
				}
				winner = b
			case 'w':
				if g.warnings[1] >= 2 {
					f.count(org, KeyWinnerTwoWarnings, gameItem(id, k, g, f.results[g.result]+", white had two warnings"))
				}
				winner = w
			default:
				return
			}
			if b == 0 || w == 0 || b == w {
				return
			}
			r := pairRow{key: [2]int64{b, w}, event: id, row: g.resultEvent, round: int32(k.round), board: int32(k.board),
				ranks: [2]rank8{pb.rank, pw.rank}, forfeit: f.results[g.result] == "black_forfeit" || f.results[g.result] == "white_forfeit"}
			if w < b {
				r.key, r.ranks = [2]int64{w, b}, [2]rank8{pw.rank, pb.rank}
			}
			if winner == r.key[1] {
				r.side = 1
			}
			rows = append(rows, r)
		})
		t.games = gameTable{} // counted: the pair indicators name a game by its row
	}
	for _, t := range f.events {
		t.games = gameTable{}
	}
	// each pair's games together, in the order of their rows
	sortPairRows(rows)
	for i := 0; i < len(rows); {
		j := i
		a := &pairAgg{}
		for ; j < len(rows) && rows[j].key == rows[i].key; j++ {
			a.add(rows[i].key, rows[j].game())
		}
		for k := i; k < j; k++ {
			rows[k].judged = a.manyEvents
		}
		f.judgePair(rows[i].key, a)
		i = j
	}
	// the played games, in place: a copy of them beside the rows was
	// 20 MB more at the audit's peak
	rated := rows[:0]
	for _, r := range rows {
		if !r.forfeit {
			rated = append(rated, r)
		}
	}
	if f.needs(KeyResultsAgainstRatings) {
		f.arranged(rated)
	}
	f.appraisers()
	f.inactiveYears()
}

// comparePairRows orders pair rows by pair, then row, event, round and
// board; each comparison only when the ones before it tie (cmp.Or would
// make all six for each of the sort's some 15 million comparisons).
func comparePairRows(x, y pairRow) int {
	if c := cmp.Compare(x.key[0], y.key[0]); c != 0 {
		return c
	}
	if c := cmp.Compare(x.key[1], y.key[1]); c != 0 {
		return c
	}
	if c := cmp.Compare(x.row, y.row); c != 0 {
		return c
	}
	if c := cmp.Compare(x.event, y.event); c != 0 {
		return c
	}
	if c := cmp.Compare(x.round, y.round); c != 0 {
		return c
	}
	return cmp.Compare(x.board, y.board)
}

// pair judges the games of one pair of players.
func (f *facts) pair(key [2]int64, gs []pairGame) {
	a := &pairAgg{}
	for _, g := range gs {
		a.add(key, g)
	}
	f.judgePair(key, a)
}

// item is the drill-down's item of a pair's game.
func (f *facts) item(g pairGame, note string) (string, Item) {
	t := f.events[g.ref.event]
	k := gameKey{int(g.ref.round), int(g.ref.board)}
	return t.facts.Organiser, gameItem(g.ref.event, k, &gameState{resultEvent: g.row}, note)
}

// judgePair counts forfeits both ways (on the organiser of the pair's last
// game), and wins traded across events (on the same organiser).
//
// Forfeits both ways are judged among the pairs that met twice or more
// (the base, on the organiser of the pair's last game): regional circuits
// make many pairs meet often, and a few of them forfeit to each other by
// chance, so a large agency's count is compared with the national rate.
func (f *facts) judgePair(key [2]int64, a *pairAgg) {
	if a.games >= 2 {
		org := f.events[a.last.ref.event].facts.Organiser
		f.m(org, KeyMutualForfeits).base++
		if a.forfeit[0].row != 0 && a.forfeit[1].row != 0 {
			later, other := a.forfeit[0], a.forfeit[1]
			if other.row > later.row {
				later, other = other, later
			}
			_, it := f.item(later, fmt.Sprintf("players %d and %d: a forfeit win each way (also %d/%d/%d)", key[0], key[1],
				other.ref.event, other.ref.round, other.ref.board))
			f.countOnce(org, KeyMutualForfeits, it)
		}
	}
	if !a.manyEvents {
		return
	}
	// the pair met in two events or more: the base; an even split of
	// their wins is the pattern (chance makes it common, so it is judged
	// against the national rate of such pairs)
	org := f.events[a.last.ref.event].facts.Organiser
	f.m(org, KeyTradedWins).base++
	if a.wins[0] == a.wins[1] {
		_, it := f.item(a.last, fmt.Sprintf("players %d and %d: %d games in two events or more, won %d each", key[0], key[1], a.games, a.wins[0]))
		f.count(org, KeyTradedWins, it)
	}
}

// identical counts the recorded games of the period that repeat an
// earlier game's record, up to the board's symmetries and the colours
// (identical_move_sequences), or nearly (near_copy_records).
//
// The matching reads only the records, so it runs on a goroutine of its
// own beside the measures that follow the pass (startCopies, beside
// finish); identical waits for it.
func (f *facts) identical(matches <-chan []copyMatch) {
	for _, c := range <-matches {
		t := f.events[c.later.Tournament]
		k := gameKey{c.later.Round, c.later.Board}
		key := KeyIdenticalMoves
		if c.edits > 0 {
			key = KeyNearCopies
		}
		f.countOnce(t.facts.Organiser, key, gameItem(c.later.Tournament, k, t.games.get(k), copyNote(c)))
	}
}

// startCopies matches the records (matchRecords) on a goroutine of its own.
func (f *facts) startCopies() <-chan []copyMatch {
	out := make(chan []copyMatch, 1)
	go func() { out <- matchRecords(f.records, MinIdenticalMoves) }()
	return out
}

// sortPairRows sorts the pair rows (comparePairRows) on two goroutines: the
// rows are split in place around a sampled pivot row, and each side sorted
// on its own. comparePairRows is a total order (no two rows name the same
// game), so the result is the one slices.SortFunc gives.
func sortPairRows(rows []pairRow) {
	if len(rows) < 1<<14 || runtime.GOMAXPROCS(0) < 2 {
		slices.SortFunc(rows, comparePairRows)
		return
	}
	var sample [255]pairRow
	for i := range sample {
		sample[i] = rows[i*(len(rows)/len(sample))]
	}
	slices.SortFunc(sample[:], comparePairRows)
	pivot := sample[len(sample)/2]
	lo := 0
	for i := range rows {
		if comparePairRows(rows[i], pivot) < 0 {
			rows[lo], rows[i] = rows[i], rows[lo]
			lo++
		}
	}
	var wg sync.WaitGroup
	wg.Go(func() { slices.SortFunc(rows[:lo], comparePairRows) })
	slices.SortFunc(rows[lo:], comparePairRows)
	wg.Wait()
}

// appraisers measures, per agency, the appraiser who signed most of its
// appraisal certificates against the national median of appraisals per
// appraiser who signed any.
func (f *facts) appraisers() {
	var per []float64
	top := map[string]int64{}
	byTop := map[string]int64{}
	apps := make([]int64, 0, len(f.appraisals))
	for ap := range f.appraisals {
		apps = append(apps, ap)
	}
	slices.Sort(apps)
	for _, ap := range apps {
		total := 0
		for issuer, its := range f.appraisals[ap] {
			total += len(its)
			if n := int64(len(its)); n > top[issuer] {
				top[issuer], byTop[issuer] = n, ap
			}
		}
		per = append(per, float64(total))
	}
	median := medianOrZero(per)
	for _, agency := range f.agencies {
		m := f.m(agency, KeyAppraisalsPerAppraiser)
		n := top[agency]
		if n == 0 || median == 0 {
			continue
		}
		m.count, m.value = n, math.Round(100*float64(n)/median)/100 // two decimals: what the scorecard shows
		if f.collect != nil && f.collect(agency, KeyAppraisalsPerAppraiser) {
			m.items = append(m.items, f.appraisals[byTop[agency]][agency]...)
		}
	}
}

func medianOrZero(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return medianOf(xs)
}

// inactiveYears counts, for an agency without any activity this year, the
// audit years back to its last active one. Only years the agency existed
// for from their start count (its creation, or the log's first event): a
// year it was created in is not an inactive year (its idle months are
// inactive_months').
func (f *facts) inactiveYears() {
	for _, agency := range f.agencies {
		if slices.ContainsFunc(f.active[agency], func(id int64) bool { return id != 0 }) {
			continue
		}
		since := f.firstAt
		if c, ok := f.created[agency]; ok && c.After(since) {
			since = c
		}
		if f.period.Start.Before(since) {
			continue
		}
		year := f.period.Start.In(ledger.ChinaTime).AddDate(1, 0, 0).Year()
		f.count(agency, KeyInactiveYears, Item{Kind: "year", Ref: strconv.Itoa(year)})
		for k := 1; ; k++ {
			start := f.period.Start.In(ledger.ChinaTime).AddDate(-k, 0, 0)
			if f.firstAt.IsZero() || start.Before(since) || f.earlier[agency][k] {
				break
			}
			f.count(agency, KeyInactiveYears, Item{Kind: "year", Ref: strconv.Itoa(year - k)})
		}
	}
}

// bool is a boolean field (false when absent).
func (p *payload) bool(key string) bool { return string(p.get(key)) == "true" }

// pair is a field holding a list of two integers ([0, 0] when absent).
func (p *payload) pair(key string) [2]int {
	var out [2]int
	v := p.get(key)
	if len(v) < 2 || v[0] != '[' {
		return out
	}
	v = v[1 : len(v)-1]
	for i := range 2 {
		field, rest, _ := strings.Cut(string(v), ",") // no copy: string(v) is only read here
		s := strings.TrimSpace(field)
		n, err := strconv.Atoi(s)
		if err != nil {
			n = 0
		}
		out[i] = n
		v = v[len(v)-len(rest):]
		if len(rest) == 0 {
			break
		}
	}
	return out
}
