package tournaments

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// MaxGradingRules bounds an event's table of grading rules.
const MaxGradingRules = 50

// GradingRule is one row of an event's grading table, published before the
// event starts: a placing of at most MaxPlacing, or at least MinWins wins
// (in the group named Group, when one is named), earns Rank. Exactly one
// of MaxPlacing and MinWins is set.
type GradingRule struct {
	MaxPlacing int
	MinWins    int
	Group      string
	Rank       registry.Rank
}

// GradingRuleInput is a grading rule as the organiser submits it.
type GradingRuleInput struct {
	MaxPlacing int    `json:"max_placing,omitempty"`
	MinWins    int    `json:"min_wins,omitempty"`
	Group      string `json:"group,omitempty"`
	Rank       string `json:"rank"`
}

// GradingRuleLogged is a grading rule as the log records it.
type GradingRuleLogged struct {
	Group      string `json:"group,omitempty"`
	MaxPlacing int    `json:"max_placing,omitempty"`
	MinWins    int    `json:"min_wins,omitempty"`
	Rank       string `json:"rank"`
}

func loggedRules(rs []GradingRule) []GradingRuleLogged {
	var out []GradingRuleLogged
	for _, r := range rs {
		out = append(out, GradingRuleLogged{Group: r.Group, MaxPlacing: r.MaxPlacing, MinWins: r.MinWins, Rank: r.Rank.String()})
	}
	return out
}

// String words a rule in English ("placing ≤ 3 → 2d", "wins ≥ 5 in A组 → 1d").
func (r GradingRule) String() string {
	return r.Text(ledger.English)
}

// Text words a rule in a language.
func (r GradingRule) Text(lang ledger.Lang) string {
	zh := lang == ledger.Chinese
	var cond string
	switch {
	case r.MaxPlacing > 0 && zh:
		cond = fmt.Sprintf("名次前 %d 名", r.MaxPlacing)
	case r.MaxPlacing > 0:
		cond = fmt.Sprintf("placing ≤ %d", r.MaxPlacing)
	case zh:
		cond = fmt.Sprintf("胜 %d 局以上", r.MinWins)
	default:
		cond = fmt.Sprintf("wins ≥ %d", r.MinWins)
	}
	if r.Group != "" {
		if zh {
			cond = r.Group + cond
		} else {
			cond += " in " + r.Group
		}
	}
	if zh {
		return cond + " → " + r.Rank.Chinese()
	}
	return cond + " → " + r.Rank.String()
}

// validateGrading checks a grading table: bounded, each row one condition
// and a rank, a named group one of the event's.
func validateGrading(in []GradingRuleInput, groups []Group) ([]GradingRule, error) {
	if len(in) > MaxGradingRules {
		return nil, ReasonGradingTooMany.OnField("grading", "max", strconv.Itoa(MaxGradingRules), "count", strconv.Itoa(len(in)))
	}
	var out []GradingRule
	for i, g := range in {
		field := fmt.Sprintf("grading[%d]", i)
		r, err := registry.ParseRank(g.Rank)
		if err != nil || r == registry.NoRank || r > registry.HighestDan {
			return nil, ReasonGroupRank.OnField(field+".rank", "value", g.Rank)
		}
		if (g.MaxPlacing > 0) == (g.MinWins > 0) || g.MaxPlacing < 0 || g.MinWins < 0 || g.MaxPlacing > 10000 || g.MinWins > 99 {
			return nil, ReasonGradingCondition.OnField(field)
		}
		name, err := ledger.OptionalText(field+".group", g.Group, maxGroupName)
		if err != nil {
			return nil, err
		}
		if name != "" {
			found := false
			for _, gr := range groups {
				found = found || gr.Name == name
			}
			if !found {
				return nil, ReasonGradingGroup.OnField(field+".group", "group", name)
			}
		}
		out = append(out, GradingRule{MaxPlacing: g.MaxPlacing, MinWins: g.MinWins, Group: name, Rank: r})
	}
	return out, nil
}

func insertGrading(ctx context.Context, tx *ledger.Tx, id int64, rules []GradingRule) error {
	if _, err := tx.Exec(ctx, `DELETE FROM tournament_grading_rules WHERE tournament_id = $1`, id); err != nil {
		return ledger.PgErr(err, "clear grading rules")
	}
	for i, r := range rules {
		if _, err := tx.Exec(ctx, `INSERT INTO tournament_grading_rules (tournament_id, position, max_placing, min_wins, group_name, rank)
			VALUES ($1, $2, $3, $4, $5, $6)`, id, i+1, r.MaxPlacing, r.MinWins, r.Group, r.Rank); err != nil {
			return ledger.PgErr(err, "record grading rule")
		}
	}
	return nil
}

func gradingRules(ctx context.Context, q ledger.Querier, id int64) ([]GradingRule, error) {
	rows, err := q.Query(ctx, `SELECT max_placing, min_wins, group_name, rank FROM tournament_grading_rules WHERE tournament_id = $1 ORDER BY position`, id)
	if err != nil {
		return nil, fmt.Errorf("grading rules of tournament %d: %w", id, err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (GradingRule, error) {
		var g GradingRule
		err := r.Scan(&g.MaxPlacing, &g.MinWins, &g.Group, &g.Rank)
		return g, err
	})
}

// Started reports whether an event has started at now: its start date
// (Beijing) is today or past, or a round is paired.
func (e Event) Started(now time.Time) bool {
	today := now.In(ledger.ChinaTime).Format(time.DateOnly)
	return e.PairedRounds > 0 || e.Start.Format(time.DateOnly) <= today
}

// RulesPublishedBeforeStart reports whether the event's grading rules (its
// groups and table) were published on or before its start date and not
// with an imported file: only then do they earn a rank, unless staff
// accepted rules set at import.
func (e Event) RulesPublishedBeforeStart() bool {
	if e.GradingAtImport {
		return false
	}
	return e.GradingSetAt.In(ledger.ChinaTime).Format(time.DateOnly) <= e.Start.Format(time.DateOnly)
}

// RulesHold reports whether the event's rules may earn a rank: published
// before the start, or set at import and accepted by staff.
func (e Event) RulesHold() bool {
	return e.RulesPublishedBeforeStart() || (e.GradingAtImport && e.GradingAcceptedAt != nil)
}

// SetGrading replaces an event's grading table before it starts; once its
// start date has come or a round is paired the rules are fixed.
func (s *Service) SetGrading(ctx context.Context, actor ledger.Actor, key string, id int64, in []GradingRuleInput) (Event, error) {
	req := []any{id, in}
	return ledger.Mutate(ctx, s.store, actor, key, "SetGrading", req, func(tx *ledger.Tx, now time.Time) (Event, error) {
		e, err := s.lockEvent(ctx, tx, actor, id)
		if err != nil {
			return Event{}, err
		}
		if e.Groups, err = s.groups(ctx, tx, id); err != nil {
			return Event{}, err
		}
		if e.Started(now) || e.Source != "" {
			return Event{}, ReasonGradingFixed.New("event", eventID(id), "start", e.Start.Format(time.DateOnly))
		}
		rules, err := validateGrading(in, e.Groups)
		if err != nil {
			return Event{}, err
		}
		if err := insertGrading(ctx, tx, id, rules); err != nil {
			return Event{}, err
		}
		if _, err := tx.Exec(ctx, `UPDATE tournaments SET grading_set_at = $2 WHERE id = $1`, id, now); err != nil {
			return Event{}, ledger.PgErr(err, "publish grading rules")
		}
		e.Grading, e.GradingSetAt = rules, now
		err = ledger.Append(ctx, tx, now, actor, "tournament", eventID(id), GradingSetPayload{Rules: loggedRules(rules)})
		return e, err
	})
}

// AcceptImportedGrading is staff's acceptance of the grading rules given
// with an imported event (set after it was held): from then on they earn
// ranks as published rules do. The note says on what the staff relied
// (the organiser's published regulations, a notice …).
func (s *Service) AcceptImportedGrading(ctx context.Context, actor ledger.Actor, key string, id int64, note string) (Event, error) {
	note, err := ledger.Text("note", note, maxDiscipline)
	if err != nil {
		return Event{}, err
	}
	req := []any{id, note}
	return ledger.Mutate(ctx, s.store, actor, key, "AcceptImportedGrading", req, func(tx *ledger.Tx, now time.Time) (Event, error) {
		if err := s.policy.Require(ctx, tx, actor, access.RunNationalEvent, registry.AssociationPrefix); err != nil {
			return Event{}, err
		}
		e, err := scanEvent(tx.QueryRow(ctx, `SELECT `+eventColumns+` FROM tournaments WHERE id = $1 FOR UPDATE`, id))
		if err != nil {
			return Event{}, ledger.RowErr(err, fmt.Sprintf("tournament %d", id), ReasonNoSuchEvent.New("event", eventID(id)))
		}
		if !e.GradingAtImport {
			return Event{}, ReasonGradingNotImported.New("event", eventID(id))
		}
		if _, err := tx.Exec(ctx, `UPDATE tournaments SET grading_accepted_at = $2, grading_accepted_by = $3 WHERE id = $1`, id, now, actor.String()); err != nil {
			return Event{}, ledger.PgErr(err, "accept grading rules")
		}
		e.GradingAcceptedAt, e.GradingAcceptedBy = &now, actor.String()
		err = ledger.Append(ctx, tx, now, actor, "tournament", eventID(id), GradingAcceptedPayload{Note: note})
		return e, err
	})
}

// PlayerRecord is the registry's statement of a registered player's
// result in an event, for the evidence of a certificate application.
type PlayerRecord struct {
	Exists       bool
	Name         string
	Start        time.Time
	Level        Level
	Organiser    string
	Finished     bool // finished, or imported with its results
	Imported     bool
	Participant  bool
	Number       int // his participant number
	Placing      int
	Wins         int
	Played       int
	Group        string
	GroupRank    registry.Rank
	GroupMinWins int
	// RulesHold says whether the event's rules may earn a rank (published
	// before the start, or set at import and accepted by staff); Rules are
	// those that apply to him (his group's and the table's rows for him or
	// for everyone), Earned the highest rank they earn him (NoRank: none).
	RulesHold bool
	Rules     []GradingRule
	Earned    registry.Rank
}

// PlayerRecordTx reads what the event says of a registered player, in the
// caller's transaction (nothing of the service is needed: the evidence
// adapter calls it without one). An unknown event is Exists false, not an
// error.
func PlayerRecordTx(ctx context.Context, q ledger.Querier, eventID, playerID int64) (PlayerRecord, error) {
	r, ok, err := standingsOf(ctx, q, eventID)
	if err != nil || !ok {
		return PlayerRecord{}, err
	}
	return recordOf(r, playerID), nil
}

// standingsOf is the standings' part of an event's report; false when
// there is no such event (its first read says so).
func standingsOf(ctx context.Context, q ledger.Querier, eventID int64) (Report, bool, error) {
	s := &Service{}
	r, err := s.standingsReport(ctx, q, eventID)
	if e, ok := ledger.AsError(err); ok && e.Reason == ReasonNoSuchEvent {
		return Report{}, false, nil
	}
	return r, err == nil, err
}

// recordOf is what report r says of a registered player. It only reads r
// (a cached report is shared).
func recordOf(r Report, playerID int64) PlayerRecord {
	var pr PlayerRecord
	e := r.Event
	pr.Exists, pr.Name, pr.Start, pr.Level, pr.Organiser = true, e.Name, e.Start, e.Level, e.OrganiserPrefix
	pr.Imported = e.Source != ""
	pr.Finished = e.Status == "finished" || (pr.Imported && e.PairedRounds > 0)
	pr.RulesHold = e.RulesHold()
	var me Participant
	for _, p := range r.Participants {
		if playerID > 0 && p.PlayerID == playerID {
			me, pr.Participant = p, true
			break
		}
	}
	if !pr.Participant {
		return pr
	}
	pr.Number = me.Number
	for _, st := range r.Standings {
		if st.Entrant == me.Number {
			pr.Placing, pr.Wins, pr.Played = st.Place, st.Wins, st.Played
		}
	}
	for _, g := range e.Groups {
		if g.ID == me.GroupID {
			pr.Group, pr.GroupRank, pr.GroupMinWins = g.Name, g.TargetRank, g.MinWins
			pr.Rules = append(pr.Rules, GradingRule{MinWins: g.MinWins, Group: g.Name, Rank: g.TargetRank})
		}
	}
	for _, g := range e.Grading {
		if g.Group == "" || g.Group == pr.Group {
			pr.Rules = append(pr.Rules, g)
		}
	}
	if pr.Finished && pr.RulesHold {
		pr.Earned = Earned(pr.Rules, pr.Placing, pr.Wins)
	}
	return pr
}

// Earned is the highest rank rules earn a placing and a number of wins
// (NoRank: none). The rules are those that apply to the player's group.
func Earned(rules []GradingRule, placing, wins int) registry.Rank {
	best := registry.NoRank
	for _, r := range rules {
		ok := (r.MaxPlacing > 0 && placing > 0 && placing <= r.MaxPlacing) || (r.MinWins > 0 && wins >= r.MinWins)
		if ok && (best == registry.NoRank || r.Rank.Outranks(best)) {
			best = r.Rank
		}
	}
	return best
}

// ParseGradingRules reads a grading table written one rule a line, as the
// portal's form takes it: "placing ≤ 3 → 2d" is "p3 2d" or "placing 3 2d",
// "wins ≥ 5 in A组 → 1d" is "w5 1d A组" or "wins 5 1d A组"; blank lines are
// skipped.
func ParseGradingRules(text string) ([]GradingRuleInput, error) {
	var out []GradingRuleInput
	for i, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(out) >= MaxGradingRules {
			return nil, ReasonGradingTooMany.OnField("grading", "max", strconv.Itoa(MaxGradingRules), "count", ">"+strconv.Itoa(MaxGradingRules))
		}
		bad := ReasonGradingLine.OnField("grading", "line", strconv.Itoa(i+1), "value", clip(strings.TrimSpace(line)))
		kind, num := f[0], ""
		switch {
		case (kind == "placing" || kind == "wins" || kind == "名次" || kind == "胜") && len(f) >= 3:
			num, f = f[1], f[2:]
		case len(kind) > 1 && (kind[0] == 'p' || kind[0] == 'w') && len(f) >= 2:
			num, kind, f = kind[1:], kind[:1], f[1:]
		default:
			return nil, bad
		}
		n, err := strconv.Atoi(num)
		if err != nil || n <= 0 {
			return nil, bad
		}
		in := GradingRuleInput{Rank: f[0]}
		if len(f) > 1 {
			in.Group = strings.Join(f[1:], " ")
		}
		if kind == "p" || kind == "placing" || kind == "名次" {
			in.MaxPlacing = n
		} else {
			in.MinWins = n
		}
		out = append(out, in)
	}
	return out, nil
}

// Today is the service's clock's date in Beijing, as events' dates are
// written (YYYY-MM-DD).
func (s *Service) Today() string { return s.store.Now().In(ledger.ChinaTime).Format(time.DateOnly) }
