package nationaldata

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"golang.org/x/mod/sumdb/tlog"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// Plan is a whole data set, ready to load: every row in its final state
// and every event the services would have written, in time order.
type Plan struct {
	Options  Options
	Agencies []registry.Agency
	Players  []registry.Player
	// IdentityChanges are the agencies' changes of birth dates, approved by staff.
	IdentityChanges []registry.IdentityChange
	Certs           certs.BulkSet
	Tournaments     []tournaments.BulkEvent
	Events          []ledger.BulkEvent
	Manifest        Manifest
}

// Actors the data set's events name.
var (
	staffActor  = ledger.Actor{Kind: ledger.StaffActor, Name: "li"}
	publicActor = ledger.Actor{Kind: ledger.Public}
)

func agencyActor(prefix string) ledger.Actor {
	return ledger.Actor{Kind: ledger.AgencyActor, Agency: prefix}
}

// scaleFigures are the sizes and rates of a scale.
type scaleFigures struct {
	players       int     // over all agencies, before noise
	minPlayers    int     // the smallest agency's
	danRate       float64 // dan certificates per registered player and year
	kyuRate       float64 // kyu certificates per registered player and year
	eventMin      int     // participants of a dan-grade event
	eventMax      int
	sgfShare      float64 // games that get an SGF record
	objectionRate float64 // notices that get an objection
}

func figures(s Scale) scaleFigures {
	if s == National {
		return scaleFigures{players: 330000, minPlayers: 900, danRate: 0.07, kyuRate: 0.11, eventMin: 24, eventMax: 100,
			sgfShare: 0.01, objectionRate: 0.08}
	}
	return scaleFigures{players: 5200, minPlayers: 70, danRate: 0.07, kyuRate: 0.11, eventMin: 14, eventMax: 40,
		sgfShare: 0.05, objectionRate: 0.3}
}

const (
	eventRounds   = 7
	circuitRounds = 5
	noticePeriod  = 7 * 24 * time.Hour
	forfeitRate   = 0.01
	editRate      = 0.02 // players whose declared rank is edited in a year
	appraisalRate = 0.06 // appraisals per dan certificate target
)

// printedKyu are the association's kyu grades with a numbered certificate.
func printedKyu(r registry.Rank) bool {
	return r > 0 || slices.Contains(certs.DefaultPrintedKyu(), int(-r))
}

// ladder is the ranks groups aim at: a player aims at the first above his.
func ladder() []registry.Rank { return []registry.Rank{-25, -20, -15, -10, -5, -2, -1, 1, 2, 3, 4, 5} }

func nextTarget(r registry.Rank) registry.Rank {
	if r == registry.NoRank {
		r = registry.LowestKyu
	}
	for _, t := range ladder() {
		if t > r {
			return t
		}
	}
	return registry.NoRank
}

type rankAt struct {
	at   time.Time
	rank registry.Rank
}

type player struct {
	row       registry.Player // the final row
	initial   registry.Player // as registered
	skill     float64         // playing strength, on the rank scale
	busyUntil time.Time       // until then he has an application or notice open
	certified []rankAt        // certified ranks, in time order
	declared  []rankAt        // declared-rank edits, in time order
	births    []birthEdit
	playedIn  int // audit year of his last event or application
	agency    *agency
}

// rankOn is the player's certified rank just after t.
func (p *player) rankOn(t time.Time) registry.Rank {
	r := registry.NoRank
	for _, c := range p.certified {
		if !c.at.After(t) {
			r = c.rank
		}
	}
	return r
}

// stateOn is the player's row as it stood just after t (the fields events show).
func (p *player) stateOn(t time.Time) registry.Player {
	s := p.initial
	s.Rank = p.rankOn(t)
	for _, d := range p.declared {
		if !d.at.After(t) {
			s.DeclaredRank = d.rank
		}
	}
	for _, b := range p.births {
		if !b.at.After(t) {
			s.BirthDate, s.IDNumber = b.birth, b.number
		}
	}
	return s
}

func (p *player) playingRank(t time.Time) registry.Rank {
	s := p.stateOn(t)
	return s.PlayingRank()
}

type birthEdit struct {
	at     time.Time
	birth  time.Time
	number string
}

type agency struct {
	row       registry.Agency
	prov      registry.Province
	weight    float64
	players   []*player
	idSeq     int
	anomaly   *Anomaly
	appraiser []certs.Appraiser
	habit     habit
	idle      bool // naturally idle in the last year (realistic sets)
}

// habit is how an agency goes about its work (realistic sets; all 1 and
// no circuit otherwise).
type habit struct {
	appraisal float64 // multiple of the usual appraisals per dan certificate
	eventSize float64 // multiple of the usual dan-grade event size (small: many small events)
	circuit   int     // open events of its regional circuit a year
}

// pendingEvent is an event whose entity or payload may wait for the
// certificate numbers, given out once every certificate is planned.
type pendingEvent struct {
	at                time.Time
	actor, entityType string
	entity            func() string
	payload           func() ledger.Payload
	fill              func(tlog.Tree) (ledger.Payload, error)
}

type certificate struct {
	row    certs.BulkCertificate
	holder *player
}

type application struct {
	row  certs.BulkApplication
	cert *certificate
}

type planner struct {
	o       Options
	f       scaleFigures
	r       *rand.Rand
	plan    *Plan
	ags     []*agency
	byPref  map[string]*agency
	events  []pendingEvent
	certs   []*certificate
	apps    []*application
	players []*player
	ids     struct {
		player, app, appraiser, notice, objection, cert, event, group, roster int64
	}
	late    map[string][]gameRef // agency → late-changed games
	forfeit map[string][]gameRef // agency → qualifying wins turned forfeits
	edited  map[string][]int64   // agency → players with birth dates edited before appraisal
	tally   map[string]*tally    // agency/year → counts for the manifest
}

type gameRef struct {
	Tournament int64 `json:"tournament"`
	Round      int   `json:"round"`
	Board      int   `json:"board"`
}

type tally struct {
	qualifyingWins, forfeitWins int
}

func (pl *planner) emit(at time.Time, actor ledger.Actor, entityType, entity string, payload ledger.Payload) {
	pl.events = append(pl.events, pendingEvent{at: at, actor: actor.String(), entityType: entityType,
		entity: func() string { return entity }, payload: func() ledger.Payload { return payload }})
}

func (pl *planner) emitLazy(at time.Time, actor ledger.Actor, entityType string, entity func() string, payload func() ledger.Payload) {
	pl.events = append(pl.events, pendingEvent{at: at, actor: actor.String(), entityType: entityType, entity: entity, payload: payload})
}

// cst is a moment in Beijing.
func cst(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, ledger.ChinaTime).UTC()
}

// date is a calendar date as the schema's date columns hold it.
func date(t time.Time) time.Time {
	y, m, d := t.In(ledger.ChinaTime).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// periodStart is the first moment of audit year y (1 December of y-1, Beijing).
func periodStart(y int) time.Time { return cst(y-1, time.December, 1, 0, 0) }

// periodEnd is the moment audit year y ends (1 December of y, Beijing).
func periodEnd(y int) time.Time { return cst(y, time.December, 1, 0, 0) }

// within picks a moment between from and to, in office hours of Beijing.
func (pl *planner) within(from, to time.Time) time.Time {
	days := int(to.Sub(from).Hours() / 24)
	if days < 1 {
		days = 1
	}
	d := from.In(ledger.ChinaTime).AddDate(0, 0, pl.r.IntN(days))
	y, m, dd := d.Date()
	t := time.Date(y, m, dd, 8+pl.r.IntN(10), pl.r.IntN(60), pl.r.IntN(60), 0, ledger.ChinaTime).UTC()
	if t.Before(from) {
		t = from.Add(time.Duration(pl.r.IntN(3600)) * time.Second)
	}
	return t
}

// Build plans the data set of the options. It is deterministic: the same
// options give the same plan.
func Build(o Options) (*Plan, error) {
	o, err := o.check()
	if err != nil {
		return nil, err
	}
	pl := &planner{o: o, f: figures(o.Scale), r: rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15)),
		plan: &Plan{Options: o}, byPref: map[string]*agency{}, late: map[string][]gameRef{}, forfeit: map[string][]gameRef{},
		edited: map[string][]int64{}, tally: map[string]*tally{}}
	pl.agencies()
	if err := pl.assignAnomalies(); err != nil {
		return nil, err
	}
	if o.Realistic {
		pl.habits()
	}
	pl.history()
	for i, y := range o.Years {
		last := i == len(o.Years)-1
		pl.year(y, last)
	}
	pl.finish()
	return pl.plan, nil
}

func (pl *planner) agencies() {
	pop := provincePopulation()
	total := 0.0
	for _, p := range registry.Provinces() {
		total += pop[p.Prefix]
	}
	for _, p := range registry.Provinces() {
		if p.Prefix == registry.AssociationPrefix {
			continue
		}
		n := int(float64(pl.f.players) * pop[p.Prefix] / total * (0.92 + 0.16*pl.r.Float64()))
		a := &agency{prov: p, weight: float64(max(n, pl.f.minPlayers)), habit: habit{appraisal: 1, eventSize: 1},
			row: registry.Agency{Prefix: p.Prefix, Name: p.NameZH + "围棋协会", Contact: "weiqi@" + p.Prefix + ".example.cn", Status: registry.AgencyActive}}
		pl.ags = append(pl.ags, a)
		pl.byPref[p.Prefix] = a
	}
}

func (pl *planner) assignAnomalies() error {
	taken := map[string]bool{}
	for _, a := range pl.o.Anomalies {
		if a.Agency != "" {
			taken[a.Agency] = true
		}
	}
	// seed-chosen agencies: among the middle and larger ones, so the
	// anomaly is not lost in an agency of a few players
	var pool []string
	for _, a := range pl.ags {
		if provincePopulation()[a.prov.Prefix] >= 20 {
			pool = append(pool, a.prov.Prefix)
		}
	}
	for i := range pl.o.Anomalies {
		an := &pl.o.Anomalies[i]
		if an.Agency == "" {
			free := slices.DeleteFunc(slices.Clone(pool), func(p string) bool { return taken[p] })
			if len(free) == 0 {
				return fmt.Errorf("no agency left for anomaly %s", an.Kind)
			}
			an.Agency = free[pl.r.IntN(len(free))]
			taken[an.Agency] = true
		}
		pl.byPref[an.Agency].anomaly = an
	}
	pl.plan.Options = pl.o
	return nil
}

// habits gives each agency its ways (realistic sets): about a quarter use
// appraisal much (1.8×), a quarter little (0.4×); a third run many small
// dan-grade events (half the size), a sixth few large ones (1.4×); each
// has a regional circuit of 2–6 open events a year. One small agency (a
// province of under 8 million) not carrying an anomaly is idle in the
// last year.
func (pl *planner) habits() {
	for _, a := range pl.ags {
		h := habit{appraisal: 1, eventSize: 1, circuit: 2 + pl.r.IntN(5)}
		switch x := pl.r.Float64(); {
		case x < 0.25:
			h.appraisal = 1.8
		case x < 0.5:
			h.appraisal = 0.4
		}
		switch x := pl.r.Float64(); {
		case x < 1.0/3:
			h.eventSize = 0.5
		case x < 0.5:
			h.eventSize = 1.4
		}
		a.habit = h
	}
	var small []*agency
	for _, a := range pl.ags {
		if provincePopulation()[a.prov.Prefix] < 8 && a.anomaly == nil {
			small = append(small, a)
		}
	}
	if len(small) > 0 {
		small[pl.r.IntN(len(small))].idle = true
	}
}

// idleIn says whether the agency does nothing in the last year: the
// inactive anomaly, or a naturally idle agency.
func (pl *planner) idleIn(a *agency) bool {
	_, ok := pl.anomalyOf(a, Inactive)
	return ok || a.idle
}

// circuit plans the agency's regional circuit of year y (realistic sets):
// its regular players — the stronger half of its kyu and dan players, up
// to 40 — enter several open events of the province, each attending about
// four in five, so the same players meet several times a year.
func (pl *planner) circuit(a *agency, y int) {
	if a.habit.circuit == 0 {
		return
	}
	first := cst(y, time.January, 20, 8, 30)
	var regulars []*player
	for _, p := range a.players {
		if p.row.CreatedAt.Before(first.AddDate(0, 0, -30)) && p.initial.DeclaredRank >= -10 && p.initial.DeclaredRank != registry.NoRank {
			regulars = append(regulars, p)
		}
	}
	size := min(40, max(10, int(a.weight*0.01)))
	if len(regulars) < 8 {
		return
	}
	pick := pl.r.Perm(len(regulars))[:min(size, len(regulars))]
	slices.Sort(pick)
	for k := range a.habit.circuit {
		day := first.AddDate(0, 0, k*280/a.habit.circuit+pl.r.IntN(10))
		var field []*player
		for _, i := range pick {
			if pl.r.Float64() < 0.8 {
				field = append(field, regulars[i])
			}
		}
		if len(field)%2 == 1 {
			field = field[:len(field)-1]
		}
		if len(field) >= 6 {
			pl.event(a, y, false, day, field, true)
		}
	}
}

func (pl *planner) anomalyOf(a *agency, k Kind) (Anomaly, bool) {
	if a.anomaly != nil && a.anomaly.Kind == k {
		return *a.anomaly, true
	}
	return Anomaly{}, false
}

// history is what stood before the first audit year: the agencies, their
// appraisers and most of their players.
func (pl *planner) history() {
	y0 := pl.o.Years[0]
	from, to := cst(y0-2, time.January, 5, 0, 0), cst(y0-1, time.November, 20, 0, 0)
	for i, a := range pl.ags {
		at := cst(y0-2, time.January, 3, 10, i)
		a.row.CreatedAt, a.row.UpdatedAt = at, at
		pl.plan.Agencies = append(pl.plan.Agencies, a.row)
		pl.emit(at, staffActor, "agency", a.row.Prefix, registry.NewAgencyCreatedPayload(a.row))
	}
	for _, a := range pl.ags {
		base := int(a.weight * 0.75)
		for range base {
			pl.register(a, pl.within(from, to))
		}
		// appraisers: strong adult players of the agency, recommended and approved
		n := 1 + int(a.weight/3000)
		for j := range min(n, 4) {
			var who *player
			for _, p := range a.players {
				if p.initial.DeclaredRank == 3 && registry.AgeOn(p.initial.BirthDate, to) >= 30 && !slices.ContainsFunc(a.appraiser,
					func(x certs.Appraiser) bool { return x.PlayerID == p.row.ID }) {
					who = p
					break
				}
			}
			pl.ids.appraiser++
			rec := cst(y0-1, time.March, 2+j, 10, 0)
			dec := rec.Add(72 * time.Hour)
			ap := certs.Appraiser{ID: pl.ids.appraiser, Name: chineseName(pl.r), AgencyPrefix: a.prov.Prefix,
				Qualification: "省业余围棋锦标赛前三名，业余5段", Status: certs.AppraiserApproved, RecommendedAt: rec, DecidedAt: &dec, DecidedBy: staffActor.String()}
			if who != nil && who.row.CreatedAt.Before(rec) {
				ap.Name, ap.PlayerID = who.row.Name, who.row.ID
			}
			a.appraiser = append(a.appraiser, ap)
			pl.plan.Certs.Appraisers = append(pl.plan.Certs.Appraisers, ap)
			pl.emit(rec, agencyActor(a.prov.Prefix), "appraiser", fmt.Sprint(ap.ID), certs.NewAppraiserRecommendedPayload(ap))
			pl.emit(dec, staffActor, "appraiser", fmt.Sprint(ap.ID), certs.AppraiserApprovedPayload{Name: ap.Name})
		}
	}
}

// register plans a player registered by his agency at t.
func (pl *planner) register(a *agency, at time.Time) *player {
	r := pl.r
	// ages: many minors
	var age int
	switch x := r.Float64(); {
	case x < 0.55:
		age = 6 + r.IntN(12)
	case x < 0.85:
		age = 18 + r.IntN(22)
	default:
		age = 40 + r.IntN(35)
	}
	day := at.In(ledger.ChinaTime).AddDate(-age, 0, -r.IntN(365))
	birth := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
	// declared ranks: kyu heavy, dan thinner (at most 3 dan may be declared)
	var rank registry.Rank
	switch x := r.Float64(); {
	case x < 0.10:
		rank = registry.NoRank
	case x < 0.38:
		rank = registry.Rank(-(10 + r.IntN(16)))
	case x < 0.66:
		rank = registry.Rank(-(2 + r.IntN(8)))
	case x < 0.74:
		rank = -1
	case x < 0.86:
		rank = 1
	case x < 0.97:
		rank = 2
	default:
		rank = 3
	}
	gender := registry.Male
	if r.IntN(10) < 3 {
		gender = registry.Female
	}
	a.idSeq++
	pl.ids.player++
	p := &player{agency: a, skill: float64(rank) + r.NormFloat64()*0.9}
	if rank == registry.NoRank {
		p.skill = -28 + r.NormFloat64()
	}
	p.initial = registry.Player{ID: pl.ids.player, Name: chineseName(r), Gender: gender, BirthDate: birth, Nationality: "CN",
		IDKind: registry.ResidentIDCard, IDNumber: residentID(a.prov.Prefix, birth, a.idSeq), ProvinceCode: a.prov.Code,
		AgencyPrefix: a.prov.Prefix, DeclaredRank: rank, CreatedAt: at, UpdatedAt: at}
	p.row = p.initial
	a.players = append(a.players, p)
	pl.players = append(pl.players, p)
	pl.emit(at, agencyActor(a.prov.Prefix), "player", fmt.Sprint(p.row.ID), registry.NewPlayerRegisteredPayload(p.initial))
	return p
}

func (pl *planner) touch(p *player, at time.Time) {
	if at.After(p.row.UpdatedAt) {
		p.row.UpdatedAt = at
	}
}

// year plans audit year y for every agency.
func (pl *planner) year(y int, last bool) {
	start, end := periodStart(y), periodEnd(y)
	for _, a := range pl.ags {
		if last && pl.idleIn(a) {
			continue // nothing at all in the year
		}
		// new players: at least one a month, so every month has an act
		n := max(12, int(a.weight*0.25/float64(len(pl.o.Years))))
		for i := range n {
			var at time.Time
			if i < 12 {
				ms := start.In(ledger.ChinaTime).AddDate(0, i, 0)
				at = pl.within(ms.UTC(), ms.AddDate(0, 1, 0).UTC().Add(-time.Hour))
			} else {
				at = pl.within(start, end.Add(-24*time.Hour))
			}
			pl.register(a, at)
		}
	}
	for _, a := range pl.ags {
		if last && pl.idleIn(a) {
			continue
		}
		pl.agencyYear(a, y, last)
	}
	pl.nationalRanks(y)
}

// agencyYear plans one agency's dan-grade events, appraisals and edits of
// the year.
func (pl *planner) agencyYear(a *agency, y int, last bool) {
	registered := 0
	end := periodEnd(y)
	for _, p := range a.players {
		if p.row.CreatedAt.Before(end) {
			registered++
		}
	}
	factor := 1.0
	if an, ok := pl.anomalyOf(a, OverIssue); ok && last {
		factor = an.Size
	}
	noise := 0.93 + 0.14*pl.r.Float64()
	danTarget := int(math.Round(pl.f.danRate * float64(registered) * noise * factor))
	kyuTarget := int(math.Round(pl.f.kyuRate * float64(registered) * noise))
	appraisals := max(1, int(math.Round(appraisalRate*a.habit.appraisal*float64(danTarget)/factor)))
	danTarget -= appraisals
	if an, ok := pl.anomalyOf(a, BirthDates); ok && last {
		danTarget -= int(an.Size) // their appraisals are dan certificates too
	}
	pl.danGradeEvents(a, y, last, danTarget, kyuTarget, factor > 1)
	pl.circuit(a, y)
	pl.appraisals(a, y, last, appraisals)
	pl.edits(a, y)
}

// danGradeEvents plans the agency's dan-grade events of year y until their
// qualifiers reach the targets; reuse lets a player promoted in one event
// play the next (the over-issuing agency).
func (pl *planner) danGradeEvents(a *agency, y int, last bool, danTarget, kyuTarget int, reuse bool) {
	first, lastDay := cst(y, time.January, 8, 9, 0), cst(y, time.November, 2, 9, 0)
	eventMin, eventMax := max(6, int(float64(pl.f.eventMin)*a.habit.eventSize)), max(8, int(float64(pl.f.eventMax)*a.habit.eventSize))
	avg := float64(eventMin+eventMax) / 2
	expected := max(2, int(math.Ceil(float64(danTarget+kyuTarget)/(avg*0.24))))
	span := lastDay.Sub(first)
	danGot, kyuGot := 0, 0
	for k := 0; k < expected*4 && (danGot < danTarget || kyuGot < kyuTarget); k++ {
		var start time.Time
		if k < expected {
			start = first.Add(time.Duration(float64(span) * float64(k) / float64(expected)))
		} else {
			start = lastDay.Add(-time.Duration(pl.r.IntN(20*24)) * time.Hour)
		}
		start = cst(start.In(ledger.ChinaTime).Year(), start.In(ledger.ChinaTime).Month(), start.In(ledger.ChinaTime).Day(), 8, 30)
		size := eventMin + pl.r.IntN(eventMax-eventMin+1)
		// the last events of the year are as large as what is still wanted
		need := max(0, danTarget-danGot) + max(0, kyuTarget-kyuGot)
		size = min(size, max(8, int(float64(need)/0.24)+4))
		var field []*player
		for _, i := range pl.r.Perm(len(a.players)) {
			p := a.players[i]
			if !p.row.CreatedAt.Before(start.Add(-30*24*time.Hour)) || p.busyUntil.After(start.Add(-20*24*time.Hour)) {
				continue
			}
			if p.playedIn == y && !reuse {
				continue
			}
			t := nextTarget(p.playingRank(start))
			if t == registry.NoRank || (t > 0 && danGot >= danTarget) || (t < 0 && kyuGot >= kyuTarget) {
				continue
			}
			field = append(field, p)
			if len(field) >= size {
				break
			}
		}
		if len(field) < 4 {
			continue
		}
		d, q := pl.event(a, y, last, start, field, false)
		danGot += d
		kyuGot += q
	}
}
