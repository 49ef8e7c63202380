package tournaments

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/rules"
)

// System is how an event pairs its rounds.
type System string

const (
	RoundRobinSystem       System = "round_robin"
	DoubleRoundRobinSystem System = "double_round_robin"
	SwissSystem            System = "swiss"
	McMahonSystem          System = "mcmahon"
	KnockoutSystem         System = "knockout"
	// DoubleKnockoutSystem: a player is out after his second loss.
	DoubleKnockoutSystem System = "double_knockout"
)

// Level is the level of the organising body.
type Level string

// NationalLevel events are the association's own.
const NationalLevel Level = "national"

// Levels lists the levels of events.
func Levels() []Level { return []Level{"county", "city", "province", NationalLevel} }

// Systems lists the pairing systems.
func Systems() []System {
	return []System{RoundRobinSystem, DoubleRoundRobinSystem, MultiRoundRobinSystem, SwissSystem, McMahonSystem, SwissEliminationSystem,
		KnockoutSystem, DoubleKnockoutSystem, MultiEliminationSystem, MatchSystem, ArenaSystem}
}

// Event is a tournament.
type Event struct {
	ID              int64
	Name            string
	OrganiserPrefix string
	Start, End      time.Time
	Venue           string
	Level           Level
	System          System
	Order           Order
	Rounds          int
	Rules           string
	Komi            float64
	Team            bool
	DanGrade        bool
	Seed            int64
	Status          string // open or finished
	Source          string // the imported file's format, if any
	CreatedAt       time.Time
	CreatedBy       string
	Groups          []Group
	PairedRounds    int
	// ChiefReferee is the chief referee the organiser appointed (art. 30);
	// he confirms results and rules on protests, through the organiser's
	// account. Colours is how colours are decided: draw or nigiri.
	ChiefReferee string
	Colours      Colours
	Ties         Ties
	// Lives (multiple elimination, Swiss with elimination), Cycles
	// (multiple round robin) and BestOf (a match) are the systems' sizes.
	Lives, Cycles, BestOf int
	// Boards is how a team event's boards are set: given at entry, or
	// ordered by rank and rating at the first pairing (art. 25).
	Boards BoardOrder
	// TeamFormat is the team event's format of article 25, Reserves the
	// substitutes (替补) a team may enter where the format lets them play.
	TeamFormat TeamFormat
	Reserves   int
	// Grading is the event's table of grading rules beside its dan-grade
	// groups (grading.go); GradingSetAt is when its rules (groups and
	// table) were published, GradingAtImport marks rules given with an
	// imported file, which earn nothing until staff accept them
	// (GradingAcceptedAt, GradingAcceptedBy).
	Grading           []GradingRule
	GradingSetAt      time.Time
	GradingAtImport   bool
	GradingAcceptedAt *time.Time
	GradingAcceptedBy string
}

// Colours says how an event decides who takes black (art. 15).
type Colours string

const (
	ColoursByDraw Colours = "draw"   // the pairing assigns them
	ColoursNigiri Colours = "nigiri" // 猜先 at the board, recorded per game
)

// Group is a dan-grade group: its players aim at a rank and qualify with
// at least MinWins wins.
type Group struct {
	ID         int64
	Name       string
	TargetRank registry.Rank
	MinWins    int
}

// GroupInput is a group as submitted.
type GroupInput struct {
	Name       string
	TargetRank string
	MinWins    int
}

// EventInput is what an organiser submits to create an event.
type EventInput struct {
	Name     string
	Start    string // YYYY-MM-DD
	End      string
	Venue    string
	Level    string
	System   string
	Order    string // standings order; empty picks the system's usual one
	Rounds   int    // 0: the system's number (round robin: from the field when paired)
	Rules    string // rules.RuleSet; empty is chinese
	Komi     *float64
	Team     bool
	DanGrade bool
	Groups   []GroupInput
	Seed     int64 // 0: drawn by the server and recorded
	// ChiefReferee names the chief referee; Colours is draw (default) or nigiri.
	ChiefReferee string
	Colours      string
	// Ties: lot (default), shared or playoff (art. 27 C).
	Ties string
	// Lives, Cycles, BestOf: see Event.
	Lives, Cycles, BestOf int
	// Boards: given (default) or rank, for team events.
	Boards string
	// TeamFormat: fixed_boards (default), fixed_order, free_lineup,
	// all_play or total_score; Reserves: substitutes a team may enter.
	TeamFormat string
	Reserves   int
	// Grading is the table of grading rules (at most MaxGradingRules rows)
	// for competitions that are not dan-grade events, or beside their
	// groups: see GradingRuleInput.
	Grading []GradingRuleInput
	// Conduct is the event's supplementary rules (time control, lateness
	// limit, sealing, cycles, the chief referee's text); nil states none yet.
	Conduct *ConductInput
}

// Service keeps tournaments in the registry's database.
type Service struct {
	store    *ledger.Store
	reg      *registry.Service
	policy   *access.Policy
	db       *pgxpool.Pool
	proposer Proposer
	rater    Rater        // nil: events are not rated
	ratings  RatingReader // nil: team boards go by rank and number only
	// replayHook, when set, is called before each record is replayed
	// (WithReplayHook).
	replayHook func(ctx context.Context, id int64, round, board int)
}

// New returns the tournament service over the store; proposer files the
// certificate applications finished dan-grade events propose; WithRater
// rates the events as they finish.
func New(store *ledger.Store, reg *registry.Service, proposer Proposer, opts ...Option) *Service {
	s := &Service{store: store, reg: reg, policy: reg.Policy(), db: store.DB(), proposer: proposer}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Limits on an event's free text, in characters.
const (
	maxEventName  = 200
	maxVenue      = 200
	maxGroupName  = 50
	maxTeam       = 100
	maxCountry    = 16 // a code (CN, FRA) as files write it
	maxKomi       = 1000
	maxPersonName = 100
	maxDiscipline = 1000 // a void's, suspension's, protest's or ruling's reason
)

func (in EventInput) validate() (Event, []Group, error) {
	e := Event{Team: in.Team, DanGrade: in.DanGrade, Seed: in.Seed, Lives: in.Lives, Cycles: in.Cycles, BestOf: in.BestOf}
	var err error
	if e.Name, err = ledger.Text("name", in.Name, maxEventName); err != nil {
		return e, nil, err
	}
	if e.Venue, err = ledger.OptionalText("venue", in.Venue, maxVenue); err != nil {
		return e, nil, err
	}
	if e.Start, err = time.Parse(time.DateOnly, strings.TrimSpace(in.Start)); err != nil {
		return e, nil, ReasonEventDate.OnField("start", "value", in.Start)
	}
	if strings.TrimSpace(in.End) == "" {
		e.End = e.Start
	} else if e.End, err = time.Parse(time.DateOnly, strings.TrimSpace(in.End)); err != nil || e.End.Before(e.Start) {
		return e, nil, ReasonEventEnd.OnField("end", "value", in.End)
	}
	e.Level = Level(in.Level)
	if !slices.Contains(Levels(), e.Level) {
		return e, nil, ReasonEventLevel.OnField("level", "value", in.Level)
	}
	e.System = System(in.System)
	if !slices.Contains(Systems(), e.System) {
		return e, nil, ReasonEventSystem.OnField("system", "value", in.System)
	}
	e.Order = Order(in.Order)
	if e.Order == "" {
		e.Order = map[System]Order{RoundRobinSystem: RoundRobinOrder, DoubleRoundRobinSystem: RoundRobinOrder, MultiRoundRobinSystem: RoundRobinOrder,
			SwissSystem: SwissSOSOrder, McMahonSystem: McMahonOrder, KnockoutSystem: SwissSOSOrder, DoubleKnockoutSystem: SwissSOSOrder,
			MultiEliminationSystem: SwissSOSOrder, SwissEliminationSystem: SwissSOSOrder, MatchSystem: RoundRobinOrder,
			ArenaSystem: RoundRobinOrder}[e.System]
	}
	if !slices.Contains(Orders(), e.Order) {
		return e, nil, ReasonEventOrder.OnField("order", "value", in.Order)
	}
	e.Rounds = in.Rounds
	if e.Rounds < 0 || e.Rounds > 99 {
		return e, nil, ledger.ReasonOutOfRange.OnField("rounds", "min", "1", "max", "99")
	}
	if e.Rounds == 0 && (e.System == SwissSystem || e.System == McMahonSystem || e.System == SwissEliminationSystem) {
		return e, nil, ReasonRoundsNeeded.OnField("rounds")
	}
	if err := e.checkSystemParams(); err != nil {
		return e, nil, err
	}
	e.Rules = strings.TrimSpace(in.Rules)
	if e.Rules == "" {
		e.Rules = string(rules.Chinese)
	}
	if _, err := rules.ParseRuleSet(e.Rules); err != nil {
		return e, nil, ReasonRules.OnField("rules", "value", e.Rules)
	}
	e.Komi = 7.5
	if in.Komi != nil {
		// NaN and infinities cannot be logged as JSON (an Internal error): refuse them and absurd values
		if k := *in.Komi; math.IsNaN(k) || k < -maxKomi || k > maxKomi {
			return e, nil, ledger.ReasonOutOfRange.OnField("komi", "min", strconv.Itoa(-maxKomi), "max", strconv.Itoa(maxKomi))
		}
		e.Komi = *in.Komi
	}
	var groups []Group
	for i, g := range in.Groups {
		r, err := registry.ParseRank(g.TargetRank)
		if err != nil || r == registry.NoRank || r > registry.HighestDan {
			return e, nil, ReasonGroupRank.OnField(fmt.Sprintf("groups[%d].target_rank", i), "value", g.TargetRank)
		}
		name, err := ledger.OptionalText(fmt.Sprintf("groups[%d].name", i), g.Name, maxGroupName)
		if err != nil {
			return e, nil, err
		}
		if name == "" {
			name = r.Chinese() + "组"
		}
		if g.MinWins < 1 {
			return e, nil, ReasonGroupWins.OnField(fmt.Sprintf("groups[%d].min_wins", i))
		}
		groups = append(groups, Group{Name: name, TargetRank: r, MinWins: g.MinWins})
	}
	if e.DanGrade && len(groups) == 0 {
		return e, nil, ReasonGroupsNeeded.OnField("groups")
	}
	if e.Grading, err = validateGrading(in.Grading, groups); err != nil {
		return e, nil, err
	}
	if e.ChiefReferee, err = ledger.OptionalText("chief_referee", in.ChiefReferee, maxPersonName); err != nil {
		return e, nil, err
	}
	e.Colours = Colours(strings.TrimSpace(in.Colours))
	if e.Colours == "" {
		e.Colours = ColoursByDraw
	}
	if e.Colours != ColoursByDraw && e.Colours != ColoursNigiri {
		return e, nil, ReasonColours.OnField("colours", "value", in.Colours)
	}
	e.Ties = Ties(cmp.Or(strings.TrimSpace(in.Ties), string(TiesByLot)))
	if e.Ties != TiesByLot && e.Ties != TiesShared && e.Ties != TiesPlayoff {
		return e, nil, ReasonTies.OnField("ties", "value", in.Ties)
	}
	if e.Boards, err = boardOrder(in.Boards, e.Team); err != nil {
		return e, nil, err
	}
	if e.TeamFormat, e.Reserves, err = teamFormat(in.TeamFormat, in.Reserves, e); err != nil {
		return e, nil, err
	}
	return e, groups, nil
}

// organiser is the prefix an actor organises under: its own province for an
// agency, the association's 000 for staff.
func organiser(actor ledger.Actor) (string, error) {
	if err := access.RequireSignedIn(actor, access.RunEvent); err != nil {
		return "", err
	}
	if actor.Kind == ledger.AgencyActor {
		return actor.Agency, nil
	}
	return registry.AssociationPrefix, nil
}

// mayRun checks the policy for running (creating, importing, changing) an
// event of the organiser at the level: national events are the
// association's.
func (s *Service) mayRun(ctx context.Context, q ledger.Querier, actor ledger.Actor, org string, level Level) error {
	if level == NationalLevel {
		return s.policy.Require(ctx, q, actor, access.RunNationalEvent, registry.AssociationPrefix)
	}
	return s.policy.Require(ctx, q, actor, access.RunEvent, org)
}

// MayRun reports whether actor may change the event now: the policy allows
// it and the event is still open. The portal asks it to decide what to offer.
func (s *Service) MayRun(ctx context.Context, actor ledger.Actor, e Event) bool {
	return e.Status == "open" && s.mayRun(ctx, s.db, actor, e.OrganiserPrefix, e.Level) == nil
}

// CreateEvent creates an event organised by the actor's agency (staff: the association).
func (s *Service) CreateEvent(ctx context.Context, actor ledger.Actor, key string, in EventInput) (Event, error) {
	org, err := organiser(actor)
	if err != nil {
		return Event{}, err
	}
	e, groups, err := in.validate()
	if err != nil {
		return Event{}, err
	}
	var conduct *Conduct
	if in.Conduct != nil {
		c, err := in.Conduct.validate()
		if err != nil {
			return Event{}, err
		}
		conduct = &c
	}
	return ledger.Mutate(ctx, s.store, actor, key, "CreateEvent", in, func(tx *ledger.Tx, now time.Time) (Event, error) {
		e, err := s.createTx(ctx, tx, now, actor, org, e, groups)
		if err == nil && conduct != nil {
			err = s.setConductTx(ctx, tx, now, actor, e.ID, conduct)
		}
		return e, err
	})
}

func (s *Service) createTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, org string, e Event, groups []Group) (Event, error) {
	if err := s.mayRun(ctx, tx, actor, org, e.Level); err != nil {
		return Event{}, err
	}
	if e.Seed == 0 {
		e.Seed = now.UnixNano()
	}
	err := tx.QueryRow(ctx, `INSERT INTO tournaments (name, organiser_prefix, start_date, end_date, venue, level, system, standings_order,
		rounds, rules, komi, team, dan_grade, seed, status, source, created_at, created_by, chief_referee, colours, ties, lives, cycles, best_of, team_boards, team_format, reserves,
		grading_set_at, grading_at_import)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'open', $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $16, $27) RETURNING id`,
		e.Name, org, e.Start, e.End, e.Venue, e.Level, e.System, e.Order, max(e.Rounds, 1), e.Rules, e.Komi, e.Team, e.DanGrade,
		e.Seed, e.Source, now, actor.String(), e.ChiefReferee, cmp.Or(e.Colours, ColoursByDraw), cmp.Or(e.Ties, TiesByLot), e.Lives, e.Cycles, e.BestOf, cmp.Or(e.Boards, BoardsGiven),
		cmp.Or(e.TeamFormat, FixedBoards), e.Reserves, e.GradingAtImport).Scan(&e.ID)
	if err != nil {
		return Event{}, ledger.PgErr(err, "create tournament")
	}
	for i := range groups {
		if err := tx.QueryRow(ctx, `INSERT INTO tournament_groups (tournament_id, name, target_rank, min_wins) VALUES ($1, $2, $3, $4) RETURNING id`,
			e.ID, groups[i].Name, groups[i].TargetRank, groups[i].MinWins).Scan(&groups[i].ID); err != nil {
			return Event{}, ledger.PgErr(err, "create group "+groups[i].Name)
		}
	}
	if err := insertGrading(ctx, tx, e.ID, e.Grading); err != nil {
		return Event{}, err
	}
	e.Groups, e.OrganiserPrefix, e.Status, e.CreatedAt, e.CreatedBy, e.GradingSetAt = groups, org, "open", now, actor.String(), now
	if e.Rounds == 0 {
		e.Rounds = 1
	}
	err = ledger.Append(ctx, tx, now, actor, "tournament", strconv.FormatInt(e.ID, 10), NewCreatedPayload(e))
	return e, err
}

const eventColumns = `id, name, organiser_prefix, start_date, end_date, venue, level, system, standings_order, rounds, rules, komi,
	team, dan_grade, seed, status, source, created_at, created_by, chief_referee, colours, ties, lives, cycles, best_of, team_boards, team_format, reserves,
	coalesce(grading_set_at, created_at), grading_at_import, grading_accepted_at, grading_accepted_by,
	(SELECT coalesce(max(round), 0) FROM tournament_rounds r WHERE r.tournament_id = tournaments.id)`

func scanEvent(r pgx.Row) (Event, error) {
	var e Event
	err := r.Scan(&e.ID, &e.Name, &e.OrganiserPrefix, &e.Start, &e.End, &e.Venue, &e.Level, &e.System, &e.Order, &e.Rounds,
		&e.Rules, &e.Komi, &e.Team, &e.DanGrade, &e.Seed, &e.Status, &e.Source, &e.CreatedAt, &e.CreatedBy, &e.ChiefReferee, &e.Colours, &e.Ties, &e.Lives, &e.Cycles, &e.BestOf, &e.Boards, &e.TeamFormat, &e.Reserves,
		&e.GradingSetAt, &e.GradingAtImport, &e.GradingAcceptedAt, &e.GradingAcceptedBy, &e.PairedRounds)
	return e, err
}

func (s *Service) groups(ctx context.Context, q ledger.Querier, id int64) ([]Group, error) {
	rows, err := q.Query(ctx, `SELECT id, name, target_rank, min_wins FROM tournament_groups WHERE tournament_id = $1 ORDER BY id`, id)
	if err != nil {
		return nil, fmt.Errorf("groups of tournament %d: %w", id, err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Group, error) {
		var g Group
		err := r.Scan(&g.ID, &g.Name, &g.TargetRank, &g.MinWins)
		return g, err
	})
}

// GetEvent returns one event with its groups.
func (s *Service) GetEvent(ctx context.Context, id int64) (Event, error) {
	return s.getEvent(ctx, s.db, id)
}

func (s *Service) getEvent(ctx context.Context, q ledger.Querier, id int64) (Event, error) {
	e, err := scanEvent(q.QueryRow(ctx, `SELECT `+eventColumns+` FROM tournaments WHERE id = $1`, id))
	if err != nil {
		return Event{}, ledger.RowErr(err, fmt.Sprintf("tournament %d", id), ReasonNoSuchEvent.New("event", eventID(id)))
	}
	if e.Groups, err = s.groups(ctx, q, id); err != nil {
		return Event{}, err
	}
	e.Grading, err = gradingRules(ctx, q, id)
	return e, err
}

// ListEvents lists events, newest first; organiser "" for all.
func (s *Service) ListEvents(ctx context.Context, organiser string, limit int) ([]Event, error) {
	if limit <= 0 || limit > 200 {
		limit = 100
	}
	rows, err := s.db.Query(ctx, `SELECT `+eventColumns+` FROM tournaments WHERE $1 = '' OR organiser_prefix = $1
		ORDER BY start_date DESC, id DESC LIMIT $2`, organiser, limit)
	if err != nil {
		return nil, fmt.Errorf("list tournaments: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Event, error) { return scanEvent(r) })
}

// lockEvent locks an event for a change by its organiser (or staff).
func (s *Service) lockEvent(ctx context.Context, tx *ledger.Tx, actor ledger.Actor, id int64) (Event, error) {
	e, err := s.lockAnyEvent(ctx, tx, actor, id)
	if err != nil {
		return Event{}, err
	}
	if e.Status != "open" {
		return Event{}, ReasonEventFinished.New("event", eventID(id))
	}
	return e, nil
}

func eventID(id int64) string { return strconv.FormatInt(id, 10) }

// Participant is an entrant of an event: a registered player or a guest.
type Participant struct {
	Number        int
	PlayerID      int64 // 0 for a guest
	Name          string
	Rank          registry.Rank
	Country       string
	GroupID       int64
	Team          string
	Board         int
	Withdrawn     bool
	WithdrewAfter int
	EGDPin        string // from an imported file; "" when none
	Reserve       bool   // a substitute (替补) of his team
}

// ParticipantInput registers a player (PlayerID) or a guest (name, rank, country).
type ParticipantInput struct {
	PlayerID     int64
	GuestName    string
	GuestRank    string
	GuestCountry string
	Group        string // group name, for dan-grade events
	Team         string
	Board        int
	EGDPin       string // the EGD PIN an imported file gives
	Reserve      bool   // a team's substitute, where the format allows them
}

func (s *Service) participants(ctx context.Context, q ledger.Querier, id int64) ([]Participant, error) {
	rows, err := q.Query(ctx, `SELECT number, coalesce(player_id, 0), name, rank, country, coalesce(group_id, 0), team, board, withdrawn, withdrew_after, egd_pin, reserve
		FROM participants WHERE tournament_id = $1 ORDER BY number`, id)
	if err != nil {
		return nil, fmt.Errorf("participants of tournament %d: %w", id, err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Participant, error) {
		var p Participant
		err := r.Scan(&p.Number, &p.PlayerID, &p.Name, &p.Rank, &p.Country, &p.GroupID, &p.Team, &p.Board, &p.Withdrawn, &p.WithdrewAfter, &p.EGDPin, &p.Reserve)
		return p, err
	})
}

// Participants lists an event's entrants by number.
func (s *Service) Participants(ctx context.Context, id int64) ([]Participant, error) {
	return s.participants(ctx, s.db, id)
}

// AddParticipant registers a player or a guest before the first round.
func (s *Service) AddParticipant(ctx context.Context, actor ledger.Actor, key string, id int64, in ParticipantInput) (Participant, error) {
	req := []any{id, in}
	return ledger.Mutate(ctx, s.store, actor, key, "AddParticipant", req, func(tx *ledger.Tx, now time.Time) (Participant, error) {
		e, err := s.lockEvent(ctx, tx, actor, id)
		if err != nil {
			return Participant{}, err
		}
		if e.PairedRounds > 0 && e.System != SwissSystem && e.System != McMahonSystem {
			return Participant{}, ReasonFieldFixed.New("event", eventID(id), "system", string(e.System))
		}
		if err := checkEntryBoard(e, in.Board); err != nil {
			return Participant{}, err
		}
		return s.addTx(ctx, tx, now, actor, e, in)
	})
}

func (s *Service) addTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, e Event, in ParticipantInput) (Participant, error) {
	p := Participant{Board: in.Board, EGDPin: strings.TrimSpace(in.EGDPin), Reserve: in.Reserve}
	var err error
	if p.Team, err = ledger.OptionalText("team", in.Team, maxTeam); err != nil {
		return Participant{}, err
	}
	if err := checkReserve(ctx, tx, e, p); err != nil {
		return Participant{}, err
	}
	if in.PlayerID > 0 {
		pl, err := registry.PlayerTx(ctx, tx, in.PlayerID, false)
		if err != nil {
			return Participant{}, err
		}
		p.PlayerID, p.Name, p.Rank, p.Country = pl.ID, pl.Name, pl.PlayingRank(), pl.Nationality
		if err := refuseSuspended(ctx, tx, e, pl.ID); err != nil {
			return Participant{}, err
		}
	} else {
		if p.Name, err = ledger.OptionalText("guest_name", in.GuestName, registry.MaxNameLen); err != nil {
			return Participant{}, err
		}
		if p.Name == "" {
			return Participant{}, ReasonParticipantRequired.OnField("guest_name")
		}
		r, err := registry.ParseRank(in.GuestRank)
		if err != nil {
			return Participant{}, registry.ReasonRank.OnField("guest_rank", "value", in.GuestRank)
		}
		country, err := ledger.OptionalText("guest_country", in.GuestCountry, maxCountry)
		if err != nil {
			return Participant{}, err
		}
		p.Rank, p.Country = r, strings.ToUpper(country)
	}
	var group any
	g, err := ledger.OptionalText("group", in.Group, maxGroupName)
	if err != nil {
		return Participant{}, err
	}
	if g != "" {
		if err := tx.QueryRow(ctx, `SELECT id FROM tournament_groups WHERE tournament_id = $1 AND name = $2`, e.ID, g).Scan(&p.GroupID); err != nil {
			return Participant{}, ReasonNoSuchGroup.OnField("group", "event", eventID(e.ID), "group", g)
		}
		group = p.GroupID
	} else if e.DanGrade {
		return Participant{}, ReasonGroupRequired.OnField("group")
	}
	var player any
	if p.PlayerID > 0 {
		player = p.PlayerID
	}
	err = tx.QueryRow(ctx, `INSERT INTO participants (tournament_id, number, player_id, name, rank, country, group_id, team, board, egd_pin, reserve)
		VALUES ($1, (SELECT coalesce(max(number), 0) + 1 FROM participants WHERE tournament_id = $1), $2, $3, $4, $5, $6, $7, $8, $9, $10)
		RETURNING number`, e.ID, player, p.Name, p.Rank, p.Country, group, p.Team, p.Board, p.EGDPin, p.Reserve).Scan(&p.Number)
	if err != nil {
		return Participant{}, ledger.PgErr(err, fmt.Sprintf("register %s in tournament %d", p.Name, e.ID))
	}
	err = ledger.Append(ctx, tx, now, actor, "tournament", strconv.FormatInt(e.ID, 10),
		NewParticipantAddedPayload(p))
	return p, err
}

// Withdraw records that a participant left after a round (0: before the start).
func (s *Service) Withdraw(ctx context.Context, actor ledger.Actor, key string, id int64, number int) (Participant, error) {
	req := []any{id, number}
	return ledger.Mutate(ctx, s.store, actor, key, "Withdraw", req, func(tx *ledger.Tx, now time.Time) (Participant, error) {
		e, err := s.lockEvent(ctx, tx, actor, id)
		if err != nil {
			return Participant{}, err
		}
		tag, err := tx.Exec(ctx, `UPDATE participants SET withdrawn = true, withdrew_after = $3 WHERE tournament_id = $1 AND number = $2 AND NOT withdrawn`,
			id, number, e.PairedRounds)
		if err != nil {
			return Participant{}, ledger.PgErr(err, "withdraw")
		}
		if tag.RowsAffected() == 0 {
			return Participant{}, ReasonNoSuchParticipant.New("event", eventID(id), "number", strconv.Itoa(number))
		}
		if e.Team { // his game of the current round, if not played, is forfeited (art. 28.4)
			if _, err := tx.Exec(ctx, `UPDATE tournament_games SET forfeit_reason = 'withdrawn',
				result = CASE WHEN black = $2 THEN 'white_forfeit' ELSE 'black_forfeit' END
				WHERE tournament_id = $1 AND result = '' AND (black = $2 OR white = $2)`, id, number); err != nil {
				return Participant{}, ledger.PgErr(err, "forfeit the withdrawn member's game")
			}
		}
		ps, err := s.participants(ctx, tx, id)
		if err != nil {
			return Participant{}, err
		}
		err = ledger.Append(ctx, tx, now, actor, "tournament", strconv.FormatInt(id, 10),
			WithdrawalPayload{AfterRound: e.PairedRounds, Number: number})
		return ps[number-1], err
	})
}

// EventsAfter lists events by id after the given one, at most limit (at
// most 1000): keyset pages for a reader of every event (the open data's
// list of tournaments), each page costing the same however deep.
func (s *Service) EventsAfter(ctx context.Context, after int64, limit int) ([]Event, error) {
	if limit <= 0 || limit > 1000 {
		limit = 1000
	}
	rows, err := s.db.Query(ctx, `SELECT `+eventColumns+` FROM tournaments WHERE id > $1 ORDER BY id LIMIT $2`, after, limit)
	if err != nil {
		return nil, fmt.Errorf("tournaments after %d: %w", after, err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Event, error) { return scanEvent(r) })
}
