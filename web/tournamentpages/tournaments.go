// Package tournamentpages is the portal's tournaments: the list and each
// tournament's page with its games (a record replayed move by move), the
// organiser's controls, the import of tournament files, and the form on
// the workspace that creates one.
package tournamentpages

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/rules"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web/kit"
)

// Pages are the tournament list and pages, their games, the organiser's
// controls and the import of tournament files.
type Pages struct {
	*kit.Site
	tours Tournaments
	// workspace shows the workspace again when the tournament form on it is refused.
	workspace kit.FailPage
	// players finds the players an organiser adds by name.
	players PlayerFinder
	// referee are the referee's acts, when tours offers them.
	referee Referee
	// flags finds dan-grade group entrants far from their group's rank
	// (the ratings' book); nil shows none.
	flags GroupFlagger
	// apps and listed word what became of a dan-grade event's proposals
	// (nil: their status is not shown) for the players the public sees.
	apps   Applications
	listed Listed
}

// GroupFlagger flags the entrants of an event's dan-grade groups whose
// rating lies margin grades or more from their group's rank (ratings/book).
type GroupFlagger interface {
	GroupFlags(ctx context.Context, ev tournaments.Event, entrants []tournaments.Participant, margin int) ([]book.GroupFlag, error)
}

// ratingFlagMargin is how many grades from the group's rank the whole 95 %
// interval of an entrant's rating must lie to flag him: one grade is the
// noise of a rank, two the sign of a sandbagger or of a rank bought elsewhere.
const ratingFlagMargin = 2

// WithGroupFlags shows the organiser and staff the dan-grade group
// entrants f flags, with the figures.
func (p *Pages) WithGroupFlags(f GroupFlagger) *Pages {
	p.flags = f
	return p
}

// New returns the tournament pages over the site; workspace shows the
// workspace again when the tournament form on it is refused, players finds
// the players an organiser adds by name.
func New(site *kit.Site, tours Tournaments, players PlayerFinder, workspace kit.FailPage) *Pages {
	p := &Pages{Site: site, tours: tours, players: players, workspace: workspace}
	p.referee, _ = tours.(Referee) // the tournament service offers them; a narrower one serves no referee page
	return p
}

// PlayerFinder finds registered players by name.
type PlayerFinder interface {
	SearchPlayers(ctx context.Context, actor ledger.Actor, q registry.PlayerQuery) (registry.PlayerPage, error)
}

// Routes registers the tournament pages.
func (p *Pages) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /tournaments", p.Get(p.tournamentList))
	mux.HandleFunc("GET /tournaments/{id}/rounds/{round}/boards/{board}", p.Get(p.game))
	mux.HandleFunc("GET /tournaments/{id}", p.tournament)
	mux.HandleFunc("GET /tournaments/{id}/export/{format}", p.Get(p.exportTournament))
	mux.Handle("POST /workspace/tournaments", p.Post(func(*http.Request) string { return "/workspace" }, p.workspace, p.createTournament))
	mux.HandleFunc("GET /workspace/import", p.importForm)
	mux.HandleFunc("POST /workspace/import", p.importFile)
	mux.Handle("POST /tournaments/{id}/participants", p.onTournament(p.addParticipant))
	p.Confirmed(mux, "/tournaments/{id}/withdrawals", kit.Confirmation{What: "confirm_withdraw", Back: toTournament, Labels: map[string]string{"number": "confirm_participant"}, Subject: p.eventSubject}, p.onTournament(p.withdraw))
	mux.Handle("POST /tournaments/{id}/pair", p.onTournament(p.pairRound))
	mux.Handle("POST /tournaments/{id}/playoff", p.onTournament(p.pairPlayoff))
	mux.Handle("POST /tournaments/{id}/rounds/{round}/results", p.onTournament(p.enterResults))
	p.refereeRoutes(mux)
	p.Confirmed(mux, "/tournaments/{id}/finish", kit.Confirmation{What: "confirm_finish", Back: toTournament, Subject: p.eventSubject}, p.onTournament(p.finishTournament))
}

// Tournaments is what the tournament pages use.
type Tournaments interface {
	ListEvents(ctx context.Context, organiser string, limit int) ([]tournaments.Event, error)
	EventReport(ctx context.Context, id int64) (tournaments.Report, error)
	GameRecord(ctx context.Context, id int64, round, board int) (tournaments.GameRow, error)
	CreateEvent(ctx context.Context, actor ledger.Actor, key string, in tournaments.EventInput) (tournaments.Event, error)
	AddParticipant(ctx context.Context, actor ledger.Actor, key string, id int64, in tournaments.ParticipantInput) (tournaments.Participant, error)
	Withdraw(ctx context.Context, actor ledger.Actor, key string, id int64, number int) (tournaments.Participant, error)
	PairNextRound(ctx context.Context, actor ledger.Actor, key string, id int64) (tournaments.RoundInfo, error)
	RecordResult(ctx context.Context, actor ledger.Actor, key string, id int64, in tournaments.ResultInput) (tournaments.GameRow, error)
	RecordRoundResults(ctx context.Context, actor ledger.Actor, key string, id int64, round int, ins []tournaments.ResultInput) ([]tournaments.GameRow, error)
	Finish(ctx context.Context, actor ledger.Actor, key string, id int64) (tournaments.Report, error)
	ImportEvent(ctx context.Context, actor ledger.Actor, key string, in tournaments.ImportInput) (tournaments.ImportResult, error)
	MayRun(ctx context.Context, actor ledger.Actor, e tournaments.Event) bool
	ExportEvent(ctx context.Context, w io.Writer, id int64, format string) (contentType, filename string, err error)
	ExportEventWith(ctx context.Context, w io.Writer, id int64, format string, opts tournaments.H9Options) (contentType, filename string, err error)
	PairPlayoff(ctx context.Context, actor ledger.Actor, key string, id int64) (tournaments.RoundInfo, error)
	PlayerSanctions(ctx context.Context, playerID int64) ([]tournaments.Sanction, error)
}

// eventView is a tournament page: the report plus what the viewer may do.
type eventView struct {
	Report    tournaments.Report
	Names     map[int]string // participant number → name
	Groups    map[int64]string
	Cross     []crossRow
	Organiser bool // the viewer may run the event
	Referee   bool // the referee's page is linked: the organiser's or staff's
	Pairing   tournaments.PairingConstraint
	// Find is the name the organiser searched to add a participant, Found
	// the registered players of that name to pick from.
	Find  string
	Found []registry.Player
	Err   string
	OK    string
	Idem  string
	CSRF  string
	// Player is the registered player whose games the page lists
	// (?player=ID, the evidence a certificate's notice links to), Number
	// his participant number (0: not a participant).
	Player int64
	Number int
	// Warnings and Sanctions are the referee's records of the event.
	Warnings  []tournaments.RefereeWarning
	Sanctions []tournaments.Sanction
	// RatingFlags are the dan-grade group entrants whose rating puts them
	// far from their group's rank: shown to the organiser and staff only.
	RatingFlags []book.GroupFlag
	// GradeGroups are a dan-grade event's groups with their players in
	// standings order; Outcomes what became of each proposal, by
	// participant number.
	GradeGroups []gradeGroup
	Outcomes    map[int]*proposalOutcome
}

// crossRow is one line of the crosstable, in standings order: the
// player's page (0: a guest) and a cell per round.
type crossRow struct {
	Standing tournaments.Standing
	PlayerID int64
	Cells    []crossCell
}

// crossCell is one round of a crosstable line: the opponent's place with
// the result and colour ("3+/b", linked to his line), marked when the game
// was decided by forfeit; or a bye; or nothing.
type crossCell struct {
	Text    string
	Place   int // the opponent's, 0 without one
	Forfeit bool
	Bye     bool
}

func crosstable(r tournaments.Report) []crossRow {
	place := map[int]int{}
	for _, s := range r.Standings {
		place[s.Entrant] = s.Place
	}
	players := map[int]int64{}
	for _, p := range r.Participants {
		players[p.Number] = p.PlayerID
	}
	var rows []crossRow
	for _, s := range r.Standings {
		row := crossRow{Standing: s, PlayerID: players[s.Entrant]}
		for _, rd := range r.Rounds {
			cell := crossCell{Bye: rd.Bye == s.Entrant}
			for _, g := range rd.Games {
				if side, ok := g.SideOf(s.Entrant); ok {
					cell = crossCell{Text: fmt.Sprintf("%d%c/%c", place[side.Opponent], side.Outcome, side.Colour), Place: place[side.Opponent], Forfeit: side.Forfeit}
				}
			}
			row.Cells = append(row.Cells, cell)
		}
		rows = append(rows, row)
	}
	return rows
}

func (p *Pages) tournamentList(w http.ResponseWriter, r *http.Request) error {
	es, err := p.tours.ListEvents(r.Context(), r.URL.Query().Get("organiser"), 100)
	if err != nil {
		return err
	}
	p.Render(w, r, http.StatusOK, tournamentsPage(p.Page(w, r, "tournaments"), es))
	return nil
}

func (p *Pages) tournament(w http.ResponseWriter, r *http.Request) {
	p.showTournament(w, r, http.StatusOK, "")
}

func (p *Pages) showTournament(w http.ResponseWriter, r *http.Request, code int, errText string) {
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
	v := eventView{Report: rep, Names: map[int]string{}, Groups: map[int64]string{}, Cross: crosstable(rep), Err: errText,
		Idem: kit.RandomHex(12), CSRF: p.FormToken(w, r), Organiser: p.tours.MayRun(r.Context(), p.Actor(r), rep.Event)}
	if a := p.Actor(r); p.referee != nil && (v.Organiser || a.IsStaff() || (a.Kind == ledger.AgencyActor && a.Agency == rep.Event.OrganiserPrefix)) {
		v.Referee = true
	}
	if p.referee != nil {
		if v.Warnings, err = p.referee.RefereeWarnings(r.Context(), rep.Event.ID); err != nil {
			p.Fail(w, r, err)
			return
		}
		if v.Sanctions, err = p.referee.EventSanctions(r.Context(), rep.Event.ID); err != nil {
			p.Fail(w, r, err)
			return
		}
		if v.Pairing, err = p.referee.GetPairingConstraint(r.Context(), rep.Event.ID); err != nil {
			p.Fail(w, r, err)
			return
		}
	}
	if code == http.StatusOK {
		v.OK = r.URL.Query().Get("ok")
	}
	if id, err := strconv.ParseInt(r.URL.Query().Get("player"), 10, 64); err == nil && id > 0 {
		v.Player = id
	}
	for _, pt := range rep.Participants {
		v.Names[pt.Number] = pt.Name
		if v.Player != 0 && pt.PlayerID == v.Player {
			v.Number = pt.Number
		}
	}
	for _, g := range rep.Event.Groups {
		v.Groups[g.ID] = g.Name
	}
	if p.flags != nil && rep.Event.DanGrade && (v.Organiser || p.Actor(r).IsStaff()) {
		flags, err := p.flags.GroupFlags(r.Context(), rep.Event, rep.Participants, ratingFlagMargin)
		if err != nil {
			p.Fail(w, r, err)
			return
		}
		v.RatingFlags = flags
	}
	pg := p.Page(w, r, "tournaments")
	if v.Outcomes, err = p.proposalOutcomes(r.Context(), pg.Lang, rep); err != nil {
		p.Fail(w, r, err)
		return
	}
	v.GradeGroups = gradeGroups(rep, v.Outcomes)
	if v.Find = strings.TrimSpace(r.URL.Query().Get("find")); v.Find != "" && v.Organiser && p.players != nil {
		q := registry.PlayerQuery{Name: v.Find, PageSize: 50}
		if pr, ok := registry.ProvinceByPrefix(rep.Event.OrganiserPrefix); ok && pr.Prefix != registry.AssociationPrefix {
			q.ProvinceCode = pr.Code // a province's event: its players; a national one: anyone's
		}
		if found, err := p.players.SearchPlayers(r.Context(), p.Actor(r), q); err == nil {
			v.Found = found.Players
		}
	}
	pg.Title = rep.Event.Name
	p.Render(w, r, code, tournamentPage(pg, v))
}

// failOnTournament shows the tournament page again with a refusal.
func (p *Pages) failOnTournament(w http.ResponseWriter, r *http.Request, _ ledger.Actor, code int, errText string) {
	p.showTournament(w, r, code, errText)
}

// onTournament wraps a form post on a tournament's page: the action gets
// the tournament's id and returns to its page.
func (p *Pages) onTournament(fn func(r *http.Request, a ledger.Actor, key string, id int64) (kit.Outcome, error)) http.HandlerFunc {
	back := func(r *http.Request) string { return "/tournaments/" + r.PathValue("id") }
	return p.Post(back, p.failOnTournament, func(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
		id, ok := kit.PathID(r)
		if !ok {
			return kit.Outcome{}, ledger.ErrNotFound
		}
		return fn(r, a, key, id)
	})
}

func (p *Pages) createTournament(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	rounds, err := kit.FormInt(r, "rounds")
	if err != nil {
		return kit.Outcome{}, err
	}
	var size [4]int64 // lives, cycles, best of, reserves
	for i, f := range []string{"lives", "cycles", "best_of", "reserves"} {
		if size[i], err = kit.FormInt(r, f); err != nil {
			return kit.Outcome{}, err
		}
	}
	in := tournaments.EventInput{Name: r.PostFormValue("name"), Start: r.PostFormValue("start"), End: r.PostFormValue("end"),
		Venue: r.PostFormValue("venue"), Level: r.PostFormValue("level"), System: r.PostFormValue("system"), Rounds: int(rounds),
		Order:    r.PostFormValue("order"),
		DanGrade: r.PostFormValue("dan_grade") == "on", Team: r.PostFormValue("team") == "on",
		Lives: int(size[0]), Cycles: int(size[1]), BestOf: int(size[2]), Colours: r.PostFormValue("colours"), Ties: r.PostFormValue("ties"),
		ChiefReferee: r.PostFormValue("chief_referee"), Boards: r.PostFormValue("team_boards"),
		TeamFormat: r.PostFormValue("team_format"), Reserves: int(size[3])}
	for i := 1; i <= 3; i++ {
		rank := strings.TrimSpace(r.PostFormValue(fmt.Sprintf("group%d_rank", i)))
		if rank == "" {
			continue
		}
		wins, err := kit.FormInt(r, fmt.Sprintf("group%d_wins", i))
		if err != nil {
			return kit.Outcome{}, err
		}
		in.Groups = append(in.Groups, tournaments.GroupInput{Name: r.PostFormValue(fmt.Sprintf("group%d_name", i)), TargetRank: rank, MinWins: int(wins)})
	}
	e, err := p.tours.CreateEvent(r.Context(), a, key, in)
	if err != nil {
		return kit.Outcome{}, err
	}
	return kit.GoTo(fmt.Sprintf("/tournaments/%d?ok=created", e.ID)), nil
}

func (p *Pages) addParticipant(r *http.Request, a ledger.Actor, key string, id int64) (kit.Outcome, error) {
	player, err := kit.FormInt(r, "player_id")
	if err != nil {
		return kit.Outcome{}, err
	}
	board, err := kit.FormInt(r, "board")
	if err != nil {
		return kit.Outcome{}, err
	}
	_, err = p.tours.AddParticipant(r.Context(), a, key, id, tournaments.ParticipantInput{PlayerID: player,
		GuestName: r.PostFormValue("guest_name"), GuestRank: r.PostFormValue("guest_rank"), GuestCountry: r.PostFormValue("guest_country"),
		Group: r.PostFormValue("group"), Team: r.PostFormValue("team"), Board: int(board),
		Reserve: r.PostFormValue("reserve") == "on"})
	return kit.Done("participant_added"), err
}

func (p *Pages) withdraw(r *http.Request, a ledger.Actor, key string, id int64) (kit.Outcome, error) {
	n, err := kit.FormInt(r, "number")
	if err != nil {
		return kit.Outcome{}, err
	}
	_, err = p.tours.Withdraw(r.Context(), a, key, id, int(n))
	return kit.Done("withdrawn"), err
}

func (p *Pages) pairRound(r *http.Request, a ledger.Actor, key string, id int64) (kit.Outcome, error) {
	_, err := p.tours.PairNextRound(r.Context(), a, key, id)
	return kit.Done("paired"), err
}

func (p *Pages) finishTournament(r *http.Request, a ledger.Actor, key string, id int64) (kit.Outcome, error) {
	_, err := p.tours.Finish(r.Context(), a, key, id)
	return kit.Done("finished"), err
}

// enterResults takes a round's form: a result, warnings and optionally an
// SGF file per board; boards left empty are skipped.
func (p *Pages) enterResults(r *http.Request, a ledger.Actor, key string, id int64) (kit.Outcome, error) {
	round, err := strconv.Atoi(r.PathValue("round"))
	if err != nil {
		return kit.Outcome{}, ledger.ErrNotFound
	}
	boards, err := kit.FormInt(r, "boards")
	if err != nil {
		return kit.Outcome{}, err
	}
	// The form's board count is the client's word: loop only over boards
	// the round has.
	have, err := p.boardsOf(r, id, round)
	if err != nil {
		return kit.Outcome{}, err
	}
	if boards < 0 || boards > int64(have) {
		return kit.Outcome{}, reasonBoards.OnField("boards", "round", strconv.Itoa(round), "have", strconv.Itoa(have),
			"boards", strconv.FormatInt(boards, 10))
	}
	// every board of the form in one call: all or nothing, under the
	// form's one idempotency key
	var ins []tournaments.ResultInput
	for b := 1; b <= int(boards); b++ {
		res := r.PostFormValue(fmt.Sprintf("result_%d", b))
		sgf := ""
		if f, _, err := r.FormFile(fmt.Sprintf("sgf_%d", b)); err == nil {
			data, err := io.ReadAll(io.LimitReader(f, rules.MaxRecordBytes+1))
			f.Close()
			if err != nil {
				return kit.Outcome{}, fmt.Errorf("read the record of board %d: %w", b, err)
			}
			sgf = string(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
		}
		if res == "" && sgf == "" {
			continue
		}
		bw, err := kit.FormInt(r, fmt.Sprintf("bw_%d", b))
		if err != nil {
			return kit.Outcome{}, err
		}
		ww, err := kit.FormInt(r, fmt.Sprintf("ww_%d", b))
		if err != nil {
			return kit.Outcome{}, err
		}
		ins = append(ins, tournaments.ResultInput{Round: round, Board: b, Result: res, BlackWarnings: int(bw), WhiteWarnings: int(ww), SGF: sgf})
	}
	if len(ins) == 0 {
		return kit.Done("results"), nil
	}
	if _, err := p.tours.RecordRoundResults(r.Context(), a, key, id, round, ins); err != nil {
		return kit.Outcome{}, boardRefusal(err, ins)
	}
	return kit.Done("results"), nil
}

// boardRefusal turns a round's refusal of its i-th result
// (results[i].field) into the refusal of the field, said of its board, as
// the form shows it.
func boardRefusal(err error, ins []tournaments.ResultInput) error {
	var le *ledger.Error
	if !errors.As(err, &le) {
		return err
	}
	var i int
	var field string
	if n, _ := fmt.Sscanf(le.Field, "results[%d].", &i); n != 1 || i < 0 || i >= len(ins) {
		return err
	}
	field = le.Field[strings.Index(le.Field, "].")+2:]
	c := *le
	c.Field = field
	return fmt.Errorf("board %d: %w", ins[i].Board, &c)
}

// boardsOf is the number of boards of a tournament's round (0 if it is not paired).
func (p *Pages) boardsOf(r *http.Request, id int64, round int) (int, error) {
	rep, err := p.tours.EventReport(r.Context(), id)
	if err != nil {
		return 0, fmt.Errorf("boards of round %d of tournament %d: %w", round, id, err)
	}
	n := 0
	for _, ri := range rep.Rounds {
		if ri.Round != round {
			continue
		}
		for _, g := range ri.Games {
			n = max(n, g.Board)
		}
	}
	return n, nil
}

// exportFormat maps an export link's last path segment to tournaments.Export's format.
func exportFormat(segment string) (string, bool) {
	switch segment {
	case "h9":
		return "h9", true
	case "opengotha.xml":
		return "opengotha", true
	case "standings.csv":
		return "csv", true
	case "games.zip":
		return "sgf_zip", true
	}
	return "", false
}

func (p *Pages) exportTournament(w http.ResponseWriter, r *http.Request) error {
	id, ok := kit.PathID(r)
	format, known := exportFormat(r.PathValue("format"))
	if !ok || !known {
		return ledger.ErrNotFound
	}
	var buf bytes.Buffer
	opts, err := h9Options(r)
	if err == nil {
		var ctype, name string
		if ctype, name, err = p.tours.ExportEventWith(r.Context(), &buf, id, format, opts); err == nil {
			w.Header().Set("Content-Type", ctype)
			w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
			_, _ = w.Write(buf.Bytes())
			return nil
		}
	}
	if k := ledger.KindOf(err); k == ledger.Invalid { // a class or time limits the organiser mistyped
		p.Refuse(w, r, p.Page(w, r, "error"), err)
		return nil
	}
	return err
}

// h9Options reads the organiser's statements for an h-file from the
// export form: the EGD class, or the time limits it follows from.
func h9Options(r *http.Request) (tournaments.H9Options, error) {
	q := r.URL.Query()
	o := tournaments.H9Options{Class: strings.TrimSpace(q.Get("class")), EventName: strings.TrimSpace(q.Get("event_name"))}
	if q.Get("overtime") == "" && q.Get("basic") == "" {
		return o, nil
	}
	num := func(key string) (int, error) {
		v := kit.Narrow(q.Get(key))
		if v == "" {
			return 0, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, tournaments.ReasonTimeControl.OnField("basic_minutes", "overtime", q.Get("overtime"))
		}
		return n, nil
	}
	tc := tournaments.TimeControl{Overtime: q.Get("overtime"), Online: q.Get("online") == "on"}
	var err error
	if tc.BasicMinutes, err = num("basic"); err != nil {
		return o, err
	}
	if tc.Seconds, err = num("seconds"); err != nil {
		return o, err
	}
	if tc.Stones, err = num("stones"); err != nil {
		return o, err
	}
	if tc.Overtime == "" {
		tc.Overtime = "none"
	}
	o.Time = &tc
	return o, nil
}

// roundName writes "第3轮" or "Round 3".
func roundName(p kit.Page, n int) string {
	if p.Lang == kit.English {
		return "Round " + strconv.Itoa(n)
	}
	return "第" + strconv.Itoa(n) + "轮"
}

// eventSubject names the tournament of the path, and the participant
// numbered in the query when there is one.
func (p *Pages) eventSubject(r *http.Request, _ kit.Page) string {
	id, ok := kit.PathID(r)
	if !ok {
		return ""
	}
	rep, err := p.tours.EventReport(r.Context(), id)
	if err != nil {
		return ""
	}
	out := rep.Event.Name
	if n, err := strconv.Atoi(r.URL.Query().Get("number")); err == nil {
		for _, pt := range rep.Participants {
			if pt.Number == n {
				out += " · " + pt.Name
			}
		}
	}
	return out
}

// toTournament is where a tournament action's cancel leads.
func toTournament(r *http.Request) string { return kit.SitePath("/tournaments/" + r.PathValue("id")) }

// valueOr is the form's value as typed, or def before anything was typed.
func valueOr(vals url.Values, field, def string) string {
	if vals == nil {
		return def
	}
	return vals.Get(field)
}

// picked is whether an option was the one chosen, or the default before
// anything was chosen.
func picked(vals url.Values, field, value string, def bool) bool {
	if vals == nil {
		return def
	}
	return vals.Get(field) == value
}

// ratingFlagApart says how many grades a flagged entrant's interval lies
// above (> 0) or below (< 0) his group's rank.
func ratingFlagApart(p kit.Page, grades int) string {
	if grades < 0 {
		return fmt.Sprintf(p.T["rating_flag_below"], -grades)
	}
	return fmt.Sprintf(p.T["rating_flag_above"], grades)
}

// teamSwissTotal says whether e's team standings rank by total score (A),
// so the page shows the opponents' match points and the total.
func teamSwissTotal(e tournaments.Event) bool {
	return e.System == tournaments.SwissSystem && e.Order == tournaments.SwissTotalOrder
}
