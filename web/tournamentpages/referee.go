package tournamentpages

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web/kit"
)

// Referee is what the referee's page of a tournament uses: the acts the
// gRPC API offers (ConfirmRound, VoidResult, protests, nigiri, lineups and
// boards, suspensions), the same domain calls.
type Referee interface {
	ConfirmRound(ctx context.Context, actor ledger.Actor, key string, id int64, round int) (tournaments.RoundInfo, error)
	VoidResult(ctx context.Context, actor ledger.Actor, key string, id int64, in tournaments.VoidInput) (tournaments.Voided, error)
	LodgeProtest(ctx context.Context, actor ledger.Actor, key string, id int64, in tournaments.ProtestInput) (tournaments.Protest, error)
	RuleProtest(ctx context.Context, actor ledger.Actor, key string, id, protest int64, upheld bool, ruling string) (tournaments.Protest, error)
	Protests(ctx context.Context, id int64) ([]tournaments.Protest, error)
	RecordNigiri(ctx context.Context, actor ledger.Actor, key string, id int64, in tournaments.NigiriInput) (tournaments.GameRow, error)
	SetBoard(ctx context.Context, actor ledger.Actor, key string, id int64, number, board int) (tournaments.Participant, error)
	SetLineup(ctx context.Context, actor ledger.Actor, key string, id int64, in tournaments.LineupInput) ([]int, error)
	Suspend(ctx context.Context, actor ledger.Actor, key string, in tournaments.SuspensionInput) (tournaments.Suspension, error)
	SetConduct(ctx context.Context, actor ledger.Actor, key string, id int64, in tournaments.ConductInput) (tournaments.Conduct, error)
	RecordAdjournment(ctx context.Context, actor ledger.Actor, key string, id int64, in tournaments.AdjournmentInput) (tournaments.Adjournment, error)
	RecordLateness(ctx context.Context, actor ledger.Actor, key string, id int64, in tournaments.LatenessInput) (tournaments.Lateness, error)
	RecordWarning(ctx context.Context, actor ledger.Actor, key string, id int64, in tournaments.WarningInput) (tournaments.Warned, error)
	RefereeWarnings(ctx context.Context, id int64) ([]tournaments.RefereeWarning, error)
	Sanction(ctx context.Context, actor ledger.Actor, key string, id int64, in tournaments.SanctionInput) (tournaments.Sanction, error)
	EventSanctions(ctx context.Context, id int64) ([]tournaments.Sanction, error)
	// A Swiss's rounds added or cut, and its pairing constraint (players of
	// one club, school or family kept apart in the first rounds).
	SetSwissRounds(ctx context.Context, actor ledger.Actor, key string, id int64, rounds int) (tournaments.Event, error)
	SetPairingConstraint(ctx context.Context, actor ledger.Actor, key string, id int64, c tournaments.PairingConstraint) (tournaments.PairingConstraint, error)
	GetPairingConstraint(ctx context.Context, id int64) (tournaments.PairingConstraint, error)
}

// refereeView is the referee's page: the event, its protests, and the
// form refused last (Act), as typed, with its refusal.
type refereeView struct {
	Report    tournaments.Report
	Names     map[int]string
	Protests  []tournaments.Protest
	Warnings  []tournaments.RefereeWarning
	Sanctions []tournaments.Sanction
	Pairing   tournaments.PairingConstraint
	Swiss     bool // the event's rounds and pairing constraint may be set
	Staff     bool
	Act       string
	Vals      url.Values
	Errs      kit.FormErrors
	OK        string
	Idem      string
	CSRF      string
}

// val is the refused form's value of a field, "" for the other forms.
func (v refereeView) val(act, field string) string {
	if v.Act != act {
		return ""
	}
	return v.Vals.Get(field)
}

// checked is whether the refused form ticked value in a field of boxes;
// with no refused form, what the event holds (now).
func (v refereeView) checked(act, field, value string, now []string) bool {
	if v.Act != act {
		return slices.Contains(now, value)
	}
	return slices.Contains(v.Vals[field], value)
}

// errs are the refused form's words, none for the other forms.
func (v refereeView) errs(act string) kit.FormErrors {
	if v.Act != act {
		return kit.FormErrors{}
	}
	return v.Errs
}

// refereeAct is one form of the referee's page: its path under
// /tournaments/{id}/referee, its fields and what it does.
type refereeAct struct {
	name   string
	fields []string
	ok     string
	do     func(p *Pages, r *http.Request, a ledger.Actor, key string, id int64) error
}

var refereeActs = append([]refereeAct{
	{"conduct", []string{"basic_minutes", "time_method", "byoyomi_periods", "byoyomi_seconds", "byoyomi_kept_minutes", "period_moves",
		"period_minutes", "lateness", "sealing", "cycle", "document"}, "conduct_set", func(p *Pages, r *http.Request, a ledger.Actor, key string, id int64) error {
		in := tournaments.ConductInput{Method: r.PostFormValue("time_method"), Lateness: r.PostFormValue("lateness"),
			Sealing: r.PostFormValue("sealing"), Cycle: r.PostFormValue("cycle"), Document: r.PostFormValue("document")}
		for _, f := range []struct {
			name string
			to   *int
		}{{"basic_minutes", &in.BasicMinutes}, {"byoyomi_periods", &in.ByoyomiPeriods}, {"byoyomi_seconds", &in.ByoyomiSeconds},
			{"byoyomi_kept_minutes", &in.ByoyomiKeptMinutes}, {"period_moves", &in.PeriodMoves}, {"period_minutes", &in.PeriodMinutes}} {
			if strings.TrimSpace(r.PostFormValue(f.name)) == "" {
				continue
			}
			n, err := kit.FormInt(r, f.name)
			if err != nil {
				return err
			}
			*f.to = int(n)
		}
		_, err := p.referee.SetConduct(r.Context(), a, key, id, in)
		return err
	}},
	{"adjourn", []string{"round", "board", "sealed_by", "point", "record"}, "adjournment_recorded", func(p *Pages, r *http.Request, a ledger.Actor, key string, id int64) error {
		rb, err := formInts(r, "round", "board")
		if err != nil {
			return err
		}
		_, err = p.referee.RecordAdjournment(r.Context(), a, key, id, tournaments.AdjournmentInput{Round: rb[0], Board: rb[1],
			SealedBy: r.PostFormValue("sealed_by"), Point: r.PostFormValue("point"), Record: r.PostFormValue("record")})
		return err
	}},
	{"lateness", []string{"round", "board", "side", "minutes"}, "lateness_recorded", func(p *Pages, r *http.Request, a ledger.Actor, key string, id int64) error {
		ns, err := formInts(r, "round", "board", "minutes")
		if err != nil {
			return err
		}
		_, err = p.referee.RecordLateness(r.Context(), a, key, id, tournaments.LatenessInput{Round: ns[0], Board: ns[1],
			Side: r.PostFormValue("side"), Minutes: ns[2]})
		return err
	}},
}, baseRefereeActs...)

// swissActs add or cut a Swiss's rounds and state its pairing constraint.
var swissActs = []refereeAct{
	{"swiss-rounds", []string{"rounds"}, "swiss_rounds_set", func(p *Pages, r *http.Request, a ledger.Actor, key string, id int64) error {
		n, err := kit.FormInt(r, "rounds")
		if err != nil {
			return err
		}
		_, err = p.referee.SetSwissRounds(r.Context(), a, key, id, int(n))
		return err
	}},
	{"pairing-constraint", []string{"avoid_rounds", "kinds"}, "pairing_constraint_set", func(p *Pages, r *http.Request, a ledger.Actor, key string, id int64) error {
		n, err := kit.FormInt(r, "avoid_rounds")
		if err != nil {
			return err
		}
		_, err = p.referee.SetPairingConstraint(r.Context(), a, key, id, tournaments.PairingConstraint{Rounds: int(n), Kinds: r.PostForm["kinds"]})
		return err
	}},
}

var baseRefereeActs = []refereeAct{
	{"confirm-round", []string{"round"}, "round_confirmed", func(p *Pages, r *http.Request, a ledger.Actor, key string, id int64) error {
		round, err := kit.FormInt(r, "round")
		if err != nil {
			return err
		}
		_, err = p.referee.ConfirmRound(r.Context(), a, key, id, int(round))
		return err
	}},
	{"void", []string{"round", "board", "side", "reason"}, "result_voided", func(p *Pages, r *http.Request, a ledger.Actor, key string, id int64) error {
		rb, err := formInts(r, "round", "board")
		if err != nil {
			return err
		}
		_, err = p.referee.VoidResult(r.Context(), a, key, id, tournaments.VoidInput{Round: rb[0], Board: rb[1],
			Side: tournaments.VoidSide(r.PostFormValue("side")), Reason: r.PostFormValue("reason")})
		return err
	}},
	{"protest", []string{"round", "board", "number", "reason"}, "protest_lodged", func(p *Pages, r *http.Request, a ledger.Actor, key string, id int64) error {
		ns, err := formInts(r, "round", "board", "number")
		if err != nil {
			return err
		}
		_, err = p.referee.LodgeProtest(r.Context(), a, key, id, tournaments.ProtestInput{Round: ns[0], Board: ns[1], Number: ns[2],
			Reason: r.PostFormValue("reason")})
		return err
	}},
	{"ruling", []string{"protest", "decision", "ruling"}, "protest_ruled", func(p *Pages, r *http.Request, a ledger.Actor, key string, id int64) error {
		protest, err := kit.FormInt(r, "protest")
		if err != nil {
			return err
		}
		_, err = p.referee.RuleProtest(r.Context(), a, key, id, protest, r.PostFormValue("decision") == "uphold", r.PostFormValue("ruling"))
		return err
	}},
	{"nigiri", []string{"round", "board", "guess", "stones"}, "nigiri_recorded", func(p *Pages, r *http.Request, a ledger.Actor, key string, id int64) error {
		ns, err := formInts(r, "round", "board", "stones")
		if err != nil {
			return err
		}
		_, err = p.referee.RecordNigiri(r.Context(), a, key, id, tournaments.NigiriInput{Round: ns[0], Board: ns[1],
			Guess: r.PostFormValue("guess"), Stones: ns[2]})
		return err
	}},
	{"board", []string{"number", "board"}, "board_set", func(p *Pages, r *http.Request, a ledger.Actor, key string, id int64) error {
		ns, err := formInts(r, "number", "board")
		if err != nil {
			return err
		}
		_, err = p.referee.SetBoard(r.Context(), a, key, id, ns[0], ns[1])
		return err
	}},
	{"lineup", []string{"team", "numbers"}, "lineup_set", func(p *Pages, r *http.Request, a ledger.Actor, key string, id int64) error {
		in := tournaments.LineupInput{Team: r.PostFormValue("team")}
		for _, s := range r.PostForm["numbers"] {
			n, err := strconv.Atoi(kit.Narrow(s))
			if err != nil {
				return kit.ReasonNotANumber.OnField("numbers", "value", s)
			}
			in.Numbers = append(in.Numbers, n)
		}
		_, err := p.referee.SetLineup(r.Context(), a, key, id, in)
		return err
	}},
	{"suspend", []string{"number", "from", "to", "reason"}, "player_suspended", func(p *Pages, r *http.Request, a ledger.Actor, key string, id int64) error {
		n, err := kit.FormInt(r, "number")
		if err != nil {
			return err
		}
		rep, err := p.tours.EventReport(r.Context(), id)
		if err != nil {
			return err
		}
		player := int64(0)
		for _, pt := range rep.Participants {
			if pt.Number == int(n) {
				player = pt.PlayerID
			}
		}
		if player == 0 {
			return reasonNotRegistered.OnField("number")
		}
		_, err = p.referee.Suspend(r.Context(), a, key, tournaments.SuspensionInput{PlayerID: player, From: r.PostFormValue("from"),
			To: r.PostFormValue("to"), Reason: r.PostFormValue("reason"), TournamentID: id})
		return err
	}},
	{"warning", []string{"round", "board", "number", "cause", "note", "referee"}, "warning_recorded", func(p *Pages, r *http.Request, a ledger.Actor, key string, id int64) error {
		ns, err := formInts(r, "round", "board", "number")
		if err != nil {
			return err
		}
		_, err = p.referee.RecordWarning(r.Context(), a, key, id, tournaments.WarningInput{Round: ns[0], Board: ns[1], Number: ns[2],
			Cause: r.PostFormValue("cause"), Note: r.PostFormValue("note"), Referee: r.PostFormValue("referee")})
		return err
	}},
	{"sanction", []string{"number", "kind", "reason"}, "participant_sanctioned", func(p *Pages, r *http.Request, a ledger.Actor, key string, id int64) error {
		n, err := kit.FormInt(r, "number")
		if err != nil {
			return err
		}
		_, err = p.referee.Sanction(r.Context(), a, key, id, tournaments.SanctionInput{Number: int(n), Kind: r.PostFormValue("kind"), Reason: r.PostFormValue("reason")})
		return err
	}},
}

// reasonNotRegistered refuses suspending a guest: a suspension is kept
// on a registered player's record.
var reasonNotRegistered = ledger.NewReason(ledger.Invalid, "PORTAL_SUSPEND_GUEST",
	"客座选手未在系统登记，不能记录停赛；请选择已登记的棋手。", "a guest is not registered and cannot be suspended; pick a registered player.")

// formInts reads whole numbers of the form, in order.
func formInts(r *http.Request, fields ...string) ([]int, error) {
	out := make([]int, len(fields))
	for i, f := range fields {
		n, err := kit.FormInt(r, f)
		if err != nil {
			return nil, err
		}
		out[i] = int(n)
	}
	return out, nil
}

// refereeRoutes registers the referee's page and its forms, each through
// a confirmation page.
func (p *Pages) refereeRoutes(mux *http.ServeMux) {
	if p.referee == nil {
		return
	}
	mux.HandleFunc("GET /tournaments/{id}/referee", func(w http.ResponseWriter, r *http.Request) {
		p.showReferee(w, r, http.StatusOK, refereeView{})
	})
	for _, act := range append(slices.Clone(refereeActs), swissActs...) {
		back := func(r *http.Request) string { return "/tournaments/" + r.PathValue("id") + "/referee" }
		fail := func(w http.ResponseWriter, r *http.Request, _ ledger.Actor, code int, errText string, err error) {
			p.showReferee(w, r, code, refereeView{Act: act.name, Vals: r.PostForm, Errs: kit.FieldErrors(kit.LangFrom(w, r), errText, err, act.fields...)})
		}
		do := p.PostFields(back, fail, func(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
			id, ok := kit.PathID(r)
			if !ok {
				return kit.Outcome{}, ledger.ErrNotFound
			}
			return kit.Done(act.ok), act.do(p, r, a, key, id)
		})
		p.Confirmed(mux, "/tournaments/{id}/referee/"+act.name, kit.Confirmation{What: "ref_confirm_" + strings.ReplaceAll(act.name, "-", "_"),
			Back: back, Subject: p.eventSubject, Labels: refereeLabels, Show: p.refereeShow}, do)
	}
}

// refereeLabels label the referee's fields on the confirmation page.
var refereeLabels = map[string]string{"round": "ref_round", "board": "board", "side": "ref_side", "reason": "reason",
	"number": "ref_player", "protest": "ref_protest", "decision": "ref_decision", "ruling": "ref_ruling", "guess": "ref_guess",
	"stones": "ref_stones", "team": "team", "numbers": "ref_lineup", "from": "ref_from", "to": "ref_to",
	"basic_minutes": "cond_f_basic_minutes", "time_method": "cond_f_time_method", "byoyomi_periods": "cond_f_byoyomi_periods",
	"byoyomi_seconds": "cond_f_byoyomi_seconds", "byoyomi_kept_minutes": "cond_f_byoyomi_kept_minutes", "period_moves": "cond_f_period_moves",
	"period_minutes": "cond_f_period_minutes", "lateness": "cond_f_lateness", "sealing": "cond_f_sealing", "cycle": "cond_f_cycle",
	"document": "cond_f_document", "sealed_by": "cond_f_sealed_by", "point": "cond_f_point", "record": "cond_f_record", "minutes": "cond_f_minutes",
	"cause": "rr_cause", "note": "rr_note", "referee": "rr_referee", "kind": "rr_kind",
	"rounds": "sw_rounds", "avoid_rounds": "sw_avoid_rounds", "kinds": "sw_kinds"}

// refereeShow words a value on the confirmation page as the form showed it.
func (p *Pages) refereeShow(r *http.Request, pg kit.Page, field, value string) string {
	switch field {
	case "side", "decision", "guess":
		if t, ok := pg.T["ref_"+field+"_"+value]; ok {
			return t
		}
		return pg.T["cond_side_"+value] // a lateness's side
	case "sealed_by":
		return pg.T["cond_side_"+value]
	case "time_method":
		return pg.T["cond_method_"+value]
	case "lateness", "sealing", "cycle":
		return pg.T["cond_"+field+"_"+value]
	case "cause", "kind":
		return pg.T["rr_"+field+"_"+value]
	case "kinds":
		return pg.T["sw_kind_"+value]
	case "number", "numbers":
		id, ok := kit.PathID(r)
		if !ok {
			return ""
		}
		rep, err := p.tours.EventReport(r.Context(), id)
		if err != nil {
			return ""
		}
		for _, pt := range rep.Participants {
			if strconv.Itoa(pt.Number) == value {
				return pt.Name
			}
		}
	}
	return ""
}

func (p *Pages) showReferee(w http.ResponseWriter, r *http.Request, code int, v refereeView) {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return
	}
	id, ok := kit.PathID(r)
	if !ok {
		p.Fail(w, r, ledger.ErrNotFound)
		return
	}
	rep, err := p.tours.EventReport(r.Context(), id)
	if err != nil {
		p.Fail(w, r, err)
		return
	}
	_ = a // each act is the domain's to allow (package access); the page only shows its forms
	if v.Protests, err = p.referee.Protests(r.Context(), id); err != nil {
		p.Fail(w, r, err)
		return
	}
	if v.Warnings, err = p.referee.RefereeWarnings(r.Context(), id); err != nil {
		p.Fail(w, r, err)
		return
	}
	if v.Sanctions, err = p.referee.EventSanctions(r.Context(), id); err != nil {
		p.Fail(w, r, err)
		return
	}
	if v.Pairing, err = p.referee.GetPairingConstraint(r.Context(), id); err != nil {
		p.Fail(w, r, err)
		return
	}
	v.Swiss = swissLike(rep.Event.System)
	v.Report, v.Names, v.Staff = rep, map[int]string{}, a.IsStaff()
	for _, pt := range rep.Participants {
		v.Names[pt.Number] = pt.Name
	}
	v.Idem, v.CSRF = kit.RandomHex(12), p.FormToken(w, r)
	if code == http.StatusOK {
		v.OK = r.URL.Query().Get("ok")
	}
	pg := p.Page(w, r, "ref_title")
	pg.Title = pg.T["ref_title"] + " · " + rep.Event.Name
	p.Render(w, r, code, refereePage(pg, v))
}

// swissLike are the systems whose rounds may be added or cut and whose
// pairing may keep players apart (tournaments.SetSwissRounds).
func swissLike(s tournaments.System) bool {
	return s == tournaments.SwissSystem || s == tournaments.McMahonSystem || s == tournaments.SwissEliminationSystem
}

// swissValue is the refused form's value of a field as typed, else what
// the event holds now.
func swissValue(v refereeView, act, field, now string) string {
	if v.Act != act {
		return now
	}
	return v.Vals.Get(field)
}
