package nationaldata

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/eventratings"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// PlantKind names an abuse planted after the load through the services,
// in process, as an agency (and staff where the abuse needs them) would
// do over the API.
type PlantKind string

const (
	// TinyEvents: kyu and unranked players promoted to 3 dan through tiny
	// dan-grade round robins the agency runs itself (six players, a 3-dan
	// group with a threshold of 2 wins, the results entered so that four
	// qualify).
	TinyEvents PlantKind = "tiny_events"
	// ArrangedResults: a closed group of six players arranging their
	// results over two round robins with four outsiders: in the first the
	// weaker always beats the stronger, in the second the other way round,
	// so every pair trades its wins, played (no forfeits) and against
	// their ranks.
	ArrangedResults PlantKind = "arranged_results"
	// TurnedRecord: one game record filed for many games of an event,
	// after turning the board (rotations, mirrors), swapping the colours
	// and changing a few moves; never an exact copy.
	TurnedRecord PlantKind = "turned_record"
	// VoidedEvidence: players certified 1 dan from round robins, then
	// results voided so that they no longer reach the threshold; the
	// certificates are left standing.
	VoidedEvidence PlantKind = "voided_evidence"
	// IdentityAroundAppraisal: 17-year-olds' birth dates and identity
	// numbers edited to make them adults, an appraisal filed and
	// approved, and the identity restored.
	IdentityAroundAppraisal PlantKind = "identity_edits"
	// AppraiserOverissue: a newly approved appraiser signs the agency's
	// appraisals by the dozen.
	AppraiserOverissue PlantKind = "appraiser_overissue"
)

// PlantKindInfo says what a plant is, the family that must catch it, and
// the indicators meant for it (today's or the ones being built).
type PlantKindInfo struct {
	Kind       PlantKind
	Family     audit.Family
	Indicators []string
	What       string
}

// PlantKinds lists the plants.
func PlantKinds() []PlantKindInfo {
	return []PlantKindInfo{
		{TinyEvents, audit.Overissue, []string{audit.KeyGradeSkips, audit.KeyThinQualifying, audit.KeyRankOutsideRating},
			"kyu/unranked players promoted to 3 dan through tiny dan-grade events the agency runs itself"},
		{ArrangedResults, audit.Falsification, []string{audit.KeyTradedWins},
			"a closed group of six trading wins over two events, against their ranks"},
		{TurnedRecord, audit.Falsification, []string{audit.KeyIdenticalMoves},
			"one game record filed for many games, turned, mirrored, colours swapped, a few moves changed"},
		{VoidedEvidence, audit.Falsification, []string{audit.KeyFallenEvidence},
			"1-dan certificates whose qualifying results were voided afterwards, left standing"},
		{IdentityAroundAppraisal, audit.Falsification, []string{audit.KeyIdentityEdits},
			"birth date and identity number edited to make minors adults, appraisal filed and approved, identity restored"},
		{AppraiserOverissue, audit.Overissue, []string{audit.KeyAppraisalsPerAppraiser, audit.KeyAppraisalShare},
			"one newly approved appraiser signing the agency's appraisals by the dozen"},
	}
}

func plantInfo(k PlantKind) (PlantKindInfo, bool) {
	i := slices.IndexFunc(PlantKinds(), func(x PlantKindInfo) bool { return x.Kind == k })
	if i < 0 {
		return PlantKindInfo{}, false
	}
	return PlantKinds()[i], true
}

// Plant is one abuse planted through the services: where, the family that
// must catch it, its size (players promoted, games, certificates, players
// edited, appraisals), what the services did (Refused: the coded refusals
// met on the way), and the ids it consists of.
type Plant struct {
	Kind       PlantKind    `json:"kind"`
	Agency     string       `json:"agency"`
	Family     audit.Family `json:"family"`
	Indicators []string     `json:"indicators,omitempty"`
	Size       int          `json:"size"`
	Note       string       `json:"note"`
	Refused    []string     `json:"refused,omitempty"`
	// Prevented: the services refused or held every attempt, so nothing
	// of the abuse stands (Size 0); the evaluation does not expect a mark.
	Prevented    bool      `json:"prevented,omitempty"`
	Players      []int64   `json:"player_ids,omitempty"`
	Events       []int64   `json:"event_ids,omitempty"`
	Applications []int64   `json:"application_ids,omitempty"`
	Certificates []string  `json:"certificate_numbers,omitempty"`
	Games        []gameRef `json:"games,omitempty"`
}

// plantClock is the services' clock while planting: set to each act's moment.
type plantClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *plantClock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *plantClock) set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// planter holds the services, wired as internal/server wires them.
type planter struct {
	plan  *Plan
	busy  map[int64]bool // players with an application in the year or in a plant
	m     *Manifest
	r     *rand.Rand
	clock *plantClock
	reg   *registry.Service
	cs    *certs.Service
	ts    *tournaments.Service
	big   bool // national scale: larger plants
	staff ledger.Actor
	idSeq int
}

// PlantAbuses plants the kinds (all when none are given) on agencies the
// manifest's seed picks — distinct from each other, from the anomalies'
// and from the naturally idle ones, among the middle and large provinces —
// through the services over pool, in the manifest's audit year, and
// records each in m.Plants. plan is the plan loaded (Load): the players
// are chosen from its rows, so that the plants name no table of another
// package; it must be realistic (its stock has room for the plants).
func PlantAbuses(ctx context.Context, pool *pgxpool.Pool, plan *Plan, m *Manifest, kinds ...PlantKind) error {
	if len(kinds) == 0 {
		for _, k := range PlantKinds() {
			kinds = append(kinds, k.Kind)
		}
	}
	clock := &plantClock{t: cst(m.AuditYear, time.March, 1, 9, 0)}
	store := ledger.New(pool, clock.now, nil)
	reg := registry.New(store)
	rb := book.New(store)
	au, err := audit.New(store, reg, audit.Config{Ratings: rb})
	if err != nil {
		return err
	}
	cs, err := certs.New(store, reg, certs.Config{}, certs.WithGrantGate(au), certs.WithApprovalGate(au), certs.WithEventEvidence(proposals.Evidence{}))
	if err != nil {
		return err
	}
	ts := tournaments.New(store, reg, proposals.Certs{Certs: cs}, tournaments.WithRater(eventratings.Book{Book: rb}),
		tournaments.WithBoardRatings(eventratings.Book{Book: rb}))
	busy := map[int64]bool{}
	for _, a := range plan.Certs.Applications {
		if !a.AppliedAt.Before(periodStart(m.AuditYear)) || a.Status == certs.AppApplied || a.Status == certs.AppOnNotice {
			busy[a.PlayerID] = true
		}
	}
	pt := &planter{plan: plan, busy: busy, m: m, r: rand.New(rand.NewPCG(m.Seed^0x51a7, m.Seed+0x9e37)), clock: clock, reg: reg, cs: cs, ts: ts,
		big: m.Scale == National, staff: staffActor}
	taken := map[string]bool{}
	for _, a := range m.Anomalies {
		taken[a.Agency] = true
	}
	for _, e := range m.Expected {
		taken[e.Agency] = true
	}
	for _, p := range m.Plants {
		taken[p.Agency] = true
	}
	var open []string
	for _, p := range registry.Provinces() {
		if p.Prefix != registry.AssociationPrefix && provincePopulation()[p.Prefix] >= 20 && !taken[p.Prefix] {
			open = append(open, p.Prefix)
		}
	}
	if len(open) < len(kinds) {
		return fmt.Errorf("plant: %d agencies free for %d plants", len(open), len(kinds))
	}
	free := pt.r.Perm(len(open))
	for _, k := range kinds {
		info, ok := plantInfo(k)
		if !ok {
			return fmt.Errorf("plant: no kind %q", k)
		}
		// the first free agency (in the seed's order) with players enough
		// for the plant; one without is passed over before any act
		var p *Plant
		for i, j := range free {
			p = &Plant{Kind: k, Agency: open[j], Family: info.Family, Indicators: info.Indicators}
			err := pt.plant(ctx, p)
			var few *tooFew
			if errors.As(err, &few) && untouched(p) && i < len(free)-1 {
				continue
			}
			if err != nil {
				return fmt.Errorf("plant %s on %s: %w", k, p.Agency, err)
			}
			free = slices.Delete(free, i, i+1)
			break
		}
		if p.Size == 0 {
			if len(p.Refused) == 0 {
				return fmt.Errorf("plant %s on %s: nothing planted and nothing refused", k, p.Agency)
			}
			p.Prevented = true
		}
		m.Plants = append(m.Plants, *p)
	}
	return nil
}

// plant plants one abuse.
func (pt *planter) plant(ctx context.Context, p *Plant) error {
	switch p.Kind {
	case TinyEvents:
		return pt.tinyEvents(ctx, p)
	case ArrangedResults:
		return pt.arranged(ctx, p)
	case TurnedRecord:
		return pt.turnedRecord(ctx, p)
	case VoidedEvidence:
		return pt.voidedEvidence(ctx, p)
	case IdentityAroundAppraisal:
		return pt.identityEdits(ctx, p)
	case AppraiserOverissue:
		return pt.appraiserOverissue(ctx, p)
	}
	return fmt.Errorf("no plant %q", p.Kind)
}

// tooFew is an agency without players enough for a plant.
type tooFew struct {
	agency, cond string
	have, want   int
}

func (e *tooFew) Error() string {
	return fmt.Sprintf("agency %s has %d players for %s, want %d", e.agency, e.have, e.cond, e.want)
}

// untouched says the plant has done nothing yet.
func untouched(p *Plant) bool {
	return len(p.Events) == 0 && len(p.Applications) == 0 && len(p.Players) == 0 && len(p.Refused) == 0 && len(p.Games) == 0
}

// refused notes a coded refusal of the services on the plant (what an
// agency would have met over the API), or returns an error that is none.
func refused(p *Plant, what string, err error) error {
	if le, ok := ledger.AsError(err); ok && ledger.KindOf(err) != ledger.Internal {
		p.Refused = append(p.Refused, what+": "+le.Reason.Code())
		return nil
	}
	return err
}

func (pt *planter) at(t time.Time) { pt.clock.set(t) }

// day is 10:00 Beijing on the day of the audit year.
func (pt *planter) day(m time.Month, d int) time.Time { return cst(pt.m.AuditYear, m, d, 10, 0) }

// candidates are n of the agency's players registered before at for whom
// ok holds, in an order the seed gives: read from the loaded plan (the
// players' rows as loaded), leaving out anyone with an application in the
// plan's last year or already in a plant, then read again through the
// registry as they stand.
func (pt *planter) candidates(ctx context.Context, agency string, at time.Time, what string, n int, ok func(p registry.Player) bool) ([]registry.Player, error) {
	var ids []int64
	for _, p := range pt.plan.Players {
		if p.AgencyPrefix == agency && p.CreatedAt.Before(at) && !pt.busy[p.ID] && ok(p) {
			ids = append(ids, p.ID)
		}
	}
	if len(ids) < n {
		return nil, &tooFew{agency, what, len(ids), n}
	}
	pt.r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	var out []registry.Player
	for _, id := range ids[:n] {
		p, err := pt.reg.GetPlayer(ctx, id)
		if err != nil {
			return nil, err
		}
		pt.busy[id] = true
		out = append(out, p)
	}
	return out, nil
}

// yearsBefore is the date n years (and months) before at, Beijing.
func yearsBefore(at time.Time, years, months int) time.Time {
	return date(at).AddDate(-years, -months, 0)
}

func (pt *planter) scaled(small, national int) int {
	if pt.big {
		return national
	}
	return small
}

// played is a game as entered: participant numbers and the result.
type played struct {
	round, board int
	black, white int
	result       string // black or white
	sgf          string
}

// runEvent creates an event of the agency on start, enters the players
// (group: the group's name, for dan-grade events), pairs every round and
// enters result(round, board, black, white) for each game, and finishes
// it: what an organiser does over the API. It returns the event, the
// players by participant number and the games.
func (pt *planter) runEvent(ctx context.Context, agency string, start time.Time, in tournaments.EventInput, players []registry.Player,
	group string, result func(g played, black, white registry.Player) played) (tournaments.Event, map[int]registry.Player, []played, error) {
	actor := agencyActor(agency)
	in.Start = start.In(ledger.ChinaTime).Format(time.DateOnly)
	in.End = start.In(ledger.ChinaTime).AddDate(0, 0, 2).Format(time.DateOnly)
	pt.at(start.AddDate(0, 0, -10))
	ev, err := pt.ts.CreateEvent(ctx, actor, "", in)
	if err != nil {
		return ev, nil, nil, fmt.Errorf("create %s: %w", in.Name, err)
	}
	byNumber := map[int]registry.Player{}
	for _, p := range players {
		part, err := pt.ts.AddParticipant(ctx, actor, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID, Group: group})
		if err != nil {
			return ev, nil, nil, fmt.Errorf("enter player %d: %w", p.ID, err)
		}
		byNumber[part.Number] = p
	}
	rounds := in.Rounds
	if rounds == 0 {
		rounds = len(players) - 1 + len(players)%2
	}
	var games []played
	for r := 1; r <= rounds; r++ {
		pt.at(start.AddDate(0, 0, (r-1)/4).Add(time.Duration((r-1)%4) * 2 * time.Hour))
		ri, err := pt.ts.PairNextRound(ctx, actor, "", ev.ID)
		if err != nil {
			return ev, nil, nil, fmt.Errorf("pair round %d: %w", r, err)
		}
		pt.at(pt.clock.now().Add(100 * time.Minute))
		for _, g := range ri.Games {
			if g.White == 0 || g.Black == 0 {
				continue
			}
			pg := result(played{round: r, board: g.Board, black: g.Black, white: g.White}, byNumber[g.Black], byNumber[g.White])
			if _, err := pt.ts.RecordResult(ctx, actor, "", ev.ID, tournaments.ResultInput{Round: r, Board: g.Board, Result: pg.result,
				SGF: pg.sgf}); err != nil {
				return ev, nil, nil, fmt.Errorf("round %d board %d: %w", r, g.Board, err)
			}
			games = append(games, pg)
		}
	}
	pt.at(pt.clock.now().Add(3 * time.Hour))
	if _, err := pt.ts.Finish(ctx, actor, "", ev.ID); err != nil {
		return ev, nil, nil, fmt.Errorf("finish %s: %w", in.Name, err)
	}
	return ev, byNumber, games, nil
}

// approveProposals approves, as the agency, the applications a finished
// dan-grade event proposed, and returns them with their certificates.
// With the application naming a registry event (being built), only the
// proposals change, not this.
func (pt *planter) approveProposals(ctx context.Context, p *Plant, ev tournaments.Event, at time.Time) error {
	rep, err := pt.ts.EventReport(ctx, ev.ID)
	if err != nil {
		return err
	}
	pt.at(at)
	for _, pr := range rep.Proposals {
		if pr.ApplicationID == 0 {
			p.Refused = append(p.Refused, "proposal: "+pr.NoteCode)
			continue
		}
		if err := pt.approve(ctx, p, pr.ApplicationID); err != nil {
			return err
		}
	}
	return nil
}

// approve approves an application as its agency and records it on the plant.
func (pt *planter) approve(ctx context.Context, p *Plant, id int64) error {
	app, err := pt.cs.Approve(ctx, agencyActor(p.Agency), "", id)
	if err != nil {
		return refused(p, fmt.Sprintf("approve application %d", id), err)
	}
	p.Applications = append(p.Applications, id)
	p.Players = append(p.Players, app.PlayerID)
	if app.CertificateNumber != "" {
		p.Certificates = append(p.Certificates, app.CertificateNumber)
		p.Size++
	}
	return nil
}

// applyAppraisal records an appraisal session as the agency (the
// appraiser, yesterday's date, one recorded game won with black, the
// verdict a grade above the player's rank) and files the application on it.
func (pt *planter) applyAppraisal(ctx context.Context, agency string, player registry.Player, appraiser certs.Appraiser) (certs.Application, error) {
	target := registry.Rank(1)
	if r := player.PlayingRank(); r >= 1 {
		target = r + 1
	}
	actor := agencyActor(agency)
	held := pt.clock.now().In(ledger.ChinaTime).AddDate(0, 0, -1).Format(time.DateOnly)
	record := sgfOf(pt.baseGame(80), true, "鉴定对局", 1)
	s, err := pt.cs.RecordAppraisal(ctx, actor, "", certs.AppraisalInput{AppraiserID: appraiser.ID, PlayerID: player.ID, HeldOn: held,
		Verdict: target.String(), Games: []certs.AppraisalGameInput{{Colour: "black", Result: "win", SGF: record}}})
	if err != nil {
		return certs.Application{}, err
	}
	return pt.cs.Apply(ctx, actor, "", certs.ApplicationInput{PlayerID: player.ID, TargetRank: target.String(),
		Basis: string(certs.Appraisal), AppraisalSessionID: s.ID, Evidence: "鉴定棋手" + appraiser.Name + "现场对局评定"})
}

// tinyEvents: six kyu or unranked players a round robin, a 3-dan group
// with a threshold of 2 wins, the lower number always winning: numbers
// 1–4 qualify; two events at small scale, four at national.
func (pt *planter) tinyEvents(ctx context.Context, p *Plant) error {
	n := pt.scaled(2, 4)
	all, err := pt.candidates(ctx, p.Agency, pt.day(time.April, 1), "kyu or unranked", 6*n, func(p registry.Player) bool {
		return p.Rank < 1 && p.DeclaredRank < 1
	})
	if err != nil {
		return err
	}
	for k := range n {
		start := pt.day(time.April+time.Month(k), 10+pt.r.IntN(10))
		field := all[6*k : 6*k+6]
		ev, _, _, err := pt.runEvent(ctx, p.Agency, start, tournaments.EventInput{Name: fmt.Sprintf("%d年段位赛（%s）第%d期", pt.m.AuditYear, p.Agency, k+1),
			Level: "city", System: "round_robin", DanGrade: true, Groups: []tournaments.GroupInput{{Name: "三段组", TargetRank: "3d", MinWins: 2}}},
			field, "三段组", func(g played, _, _ registry.Player) played {
				g.result = "white"
				if g.black < g.white {
					g.result = "black"
				}
				return g
			})
		if err != nil {
			return err
		}
		p.Events = append(p.Events, ev.ID)
		if err := pt.approveProposals(ctx, p, ev, start.AddDate(0, 0, 4)); err != nil {
			return err
		}
	}
	p.Note = fmt.Sprintf("%d round robins of 6 with a 3-dan group (threshold 2 wins): %d players from kyu or none to 3 dan", n, p.Size)
	return nil
}

// strength orders players by playing rank, none lowest.
func strength(p registry.Player) float64 {
	if r := p.PlayingRank(); r != registry.NoRank {
		return float64(r)
	}
	return -31
}

// byRank is a result by the players' ranks: the stronger wins with the
// usual odds.
func (pt *planter) byRank(b, w registry.Player) string {
	if pt.r.Float64() < 1/(1+math.Exp(-(strength(b)-strength(w))*0.9)) {
		return "black"
	}
	return "white"
}

// arranged: six players of 5 kyu to 2 dan and four outsiders, two city
// round robins; among the six the weaker wins in the first, the stronger
// in the second.
func (pt *planter) arranged(ctx context.Context, p *Plant) error {
	start := pt.day(time.March, 14)
	group, err := pt.candidates(ctx, p.Agency, start, "5 kyu to 2 dan", 10, func(p registry.Player) bool {
		return p.Rank >= 0 && p.Rank <= 2 && p.DeclaredRank >= -5 && p.DeclaredRank <= 2 && p.DeclaredRank != registry.NoRank
	})
	if err != nil {
		return err
	}
	in := map[int64]bool{}
	for _, g := range group[:6] {
		in[g.ID] = true
		p.Players = append(p.Players, g.ID)
	}
	for k, start := range []time.Time{start, pt.day(time.September, 12)} {
		ev, byNumber, games, err := pt.runEvent(ctx, p.Agency, start, tournaments.EventInput{Name: fmt.Sprintf("%d年业余围棋邀请赛（%s）第%d届", pt.m.AuditYear, p.Agency, k+1),
			Level: "city", System: "round_robin"}, group, "", func(g played, b, w registry.Player) played {
			switch {
			case in[b.ID] && in[w.ID]:
				weakerBlack := strength(b) < strength(w) || (strength(b) == strength(w) && b.ID < w.ID)
				if weakerBlack == (k == 0) {
					g.result = "black"
				} else {
					g.result = "white"
				}
			default:
				g.result = pt.byRank(b, w)
			}
			return g
		})
		if err != nil {
			return err
		}
		p.Events = append(p.Events, ev.ID)
		for _, g := range games {
			if in[byNumber[g.black].ID] && in[byNumber[g.white].ID] {
				p.Games = append(p.Games, gameRef{ev.ID, g.round, g.board})
			}
		}
	}
	p.Size = len(p.Games)
	p.Note = fmt.Sprintf("6 players trading wins over 2 round robins of 10 (%d games among them, the weaker winning in the first)", p.Size)
	return nil
}
