package tournaments

import (
	"archive/zip"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// Report is an event with everything its page shows.
type Report struct {
	Event        Event
	Participants []Participant
	Rounds       []RoundInfo
	Standings    []Standing
	Teams        []TeamStanding // team events
	Arena        *ArenaResult   // an arena match
	Proposals    []Proposal
	// Conduct is the event's supplementary rules (nil: it states none);
	// Adjournments and Latenesses what the referee recorded under them.
	Conduct      *Conduct
	Adjournments []Adjournment
	Latenesses   []Lateness
}

// Proposal is a certificate application a dan-grade event proposed, or why not.
type Proposal struct {
	Number        int
	Name          string
	ApplicationID int64
	// NoteCode and NoteParams say what became of it, as a code (NoteText
	// words it): this package's own, or the code of the certification's
	// refusal. Note and NoteZH are the wordings as recorded, and all there
	// is for proposals recorded before codes.
	NoteCode   string
	NoteParams map[string]string
	Note       string // in English
	NoteZH     string // in Chinese; empty for proposals recorded before it was kept
}

// field builds the standings' view of an event, applying the withdrawal
// rules of its system.
func field(e Event, ps []Participant, rounds []RoundInfo) Field {
	// a playoff round separates tied players and is no round of the
	// event: the Swiss (A) total (P·r + SOS − r²) counts the others only
	regular := 0
	for _, r := range rounds {
		if !r.Playoff {
			regular++
		}
	}
	f := Field{Rounds: max(e.Rounds, regular), Seed: e.Seed, Ties: e.Ties}
	var starts map[int]int
	if e.System == McMahonSystem {
		starts = mcMahonStarts(ps)
	}
	for _, p := range ps {
		f.Entrants = append(f.Entrants, Entrant{ID: p.Number, Name: p.Name, Withdrawn: p.Withdrawn, WithdrewAfter: p.WithdrewAfter,
			MMS0: starts[p.Number]})
	}
	for _, r := range rounds {
		for _, g := range r.Games {
			if r.Playoff { // they separate tied players and nothing else
				f.Playoff = append(f.Playoff, g.Game)
				continue
			}
			f.Games = append(f.Games, g.Game)
		}
		if r.Bye != 0 && r.ByePoints > 0 {
			f.Byes = append(f.Byes, Bye{Round: r.Round, Player: r.Bye, Points: r.ByePoints})
		}
		for _, b := range r.MoreByes {
			if b.Points > 0 {
				f.Byes = append(f.Byes, b)
			}
		}
	}
	// A team member's withdrawal keeps his results (art. 28.4); the
	// round-robin rule of voiding them is for individual events.
	if !e.Team && (e.System == RoundRobinSystem || e.System == DoubleRoundRobinSystem) {
		f.Games = ApplyWithdrawals(f.Entrants, f.Games, regularRounds(e, ps))
	}
	return f
}

// EventReport reads an event, its field, rounds, standings and proposals.
func (s *Service) EventReport(ctx context.Context, id int64) (Report, error) {
	return s.eventReport(ctx, s.db, id)
}

func (s *Service) eventReport(ctx context.Context, q ledger.Querier, id int64) (Report, error) {
	r, err := s.standingsReport(ctx, q, id)
	if err != nil {
		return r, err
	}
	if c, ok, err := conductOf(ctx, q, id); err != nil {
		return r, err
	} else if ok {
		r.Conduct = &c
	}
	if r.Adjournments, err = adjournments(ctx, q, id); err != nil {
		return r, err
	}
	if r.Latenesses, err = latenesses(ctx, q, id); err != nil {
		return r, err
	}
	if r.Event.System == ArenaSystem {
		var games []Game
		for _, rd := range r.Rounds {
			for _, g := range rd.Games {
				games = append(games, g.Game)
			}
		}
		st, err := ArenaState(r.Participants, games, r.Event.Colours)
		if err == nil { // an arena whose teams are not yet complete has no state to show
			r.Arena, r.Teams = &st, ArenaTeamStandings(st, r.Standings)
			r.Event.Rounds = max(len(st.Players)-1, 1) // the longest match: all but one player beaten
		}
	} else if r.Event.Team {
		members := map[int]TeamMember{}
		for _, p := range r.Participants {
			members[p.Number] = TeamMember{Team: p.Team, Board: p.Board}
		}
		var games []Game
		var byes []string
		for _, rd := range r.Rounds {
			for _, g := range rd.Games {
				games = append(games, g.Game)
			}
			// an all-play match's bye is one, however many rounds it spans
			if m, ok := members[rd.Bye]; ok && rd.Bye != 0 && (r.Event.TeamFormat != AllPlay || (rd.Round-1)%max(starters(r.Participants), 1) == 0) {
				byes = append(byes, m.Team)
			}
		}
		games = matchRounds(r.Event, r.Participants, games)
		rank := TeamStandings
		switch {
		case r.Event.TeamFormat == TotalScore:
			rank = TeamStandingsByTotal
		case r.Event.System == SwissSystem && r.Event.Order == SwissTotalOrder:
			rank = func(m map[int]TeamMember, g []Game, b []string) ([]TeamStanding, error) {
				return TeamStandingsBySwissTotal(m, g, b, r.Event.Rounds)
			}
		}
		if r.Teams, err = rank(members, games, byes); err != nil {
			return r, fmt.Errorf("team standings of tournament %d: %w", id, err)
		}
	}
	rows, err := q.Query(ctx, `SELECT pr.number, pa.name, coalesce(pr.application_id, 0), pr.note_code, pr.note_params, pr.note, pr.note_zh FROM tournament_proposals pr
		JOIN participants pa ON pa.tournament_id = pr.tournament_id AND pa.number = pr.number WHERE pr.tournament_id = $1 ORDER BY pr.number`, id)
	if err != nil {
		return r, fmt.Errorf("proposals of tournament %d: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var p Proposal
		if err := rows.Scan(&p.Number, &p.Name, &p.ApplicationID, &p.NoteCode, &p.NoteParams, &p.Note, &p.NoteZH); err != nil {
			return r, err
		}
		r.Proposals = append(r.Proposals, p)
	}
	return r, rows.Err()
}

// standingsReport is the part of an event's report its standings need:
// the event, its participants, its rounds and the individual standings
// (an approval's evidence reads no more of it).
func (s *Service) standingsReport(ctx context.Context, q ledger.Querier, id int64) (Report, error) {
	var r Report
	var err error
	if r.Event, err = s.getEvent(ctx, q, id); err != nil {
		return r, err
	}
	if r.Participants, err = s.participants(ctx, q, id); err != nil {
		return r, err
	}
	if r.Rounds, err = s.rounds(ctx, q, id); err != nil {
		return r, err
	}
	if r.Standings, err = Standings(field(r.Event, r.Participants, r.Rounds), r.Event.Order); err != nil {
		return r, fmt.Errorf("standings of tournament %d: %w", id, err)
	}
	return r, nil
}

// WriteStandingsCSV writes the standings as CSV (UTF-8 with a BOM for Excel).
func WriteStandingsCSV(w io.Writer, r Report) error {
	if _, err := io.WriteString(w, "\ufeff"); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	_ = cw.Write([]string{"名次 Place", "编号 No", "姓名 Name", "积分 Points", "胜 W", "和 D", "负 L", "胜者小分 Winners' score", "SOS", "SOSOS", "SODOS", "警告 Warnings"})
	for _, s := range r.Standings {
		_ = cw.Write([]string{strconv.Itoa(s.Place), strconv.Itoa(s.Entrant), ledger.SpreadsheetCell(s.Name), strconv.Itoa(s.Points), strconv.Itoa(s.Wins),
			strconv.Itoa(s.Draws), strconv.Itoa(s.Losses), HalfString(s.WinnersScore2), strconv.Itoa(s.SOS), strconv.Itoa(s.SOSOS),
			HalfString(s.SODOS2), strconv.Itoa(s.Warnings)})
	}
	cw.Flush()
	return cw.Error()
}

// WriteSGFArchive writes every uploaded record into a zip, one file per game.
func WriteSGFArchive(w io.Writer, r Report) (int, error) {
	zw := zip.NewWriter(w)
	names := map[int]string{}
	for _, p := range r.Participants {
		names[p.Number] = p.Name
	}
	n := 0
	for _, rd := range r.Rounds {
		for _, g := range rd.Games {
			if g.Record == "" {
				continue
			}
			f, err := zw.Create(fmt.Sprintf("round%02d-board%02d-%s-%s.sgf", g.Round, g.Board, safe(names[g.Black]), safe(names[g.White])))
			if err != nil {
				return n, err
			}
			if _, err := io.WriteString(f, g.Record); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, zw.Close()
}

func safe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ' ' || r < 32 {
			return '_'
		}
		return r
	}, s)
}

// ExportEvent reads an event and writes it in the format (see Export); the
// SGF bodies are read only for the archive of records.
func (s *Service) ExportEvent(ctx context.Context, w io.Writer, id int64, format string) (contentType, filename string, err error) {
	return s.ExportEventWith(ctx, w, id, format, H9Options{})
}

// ExportEventWith is ExportEvent with the organiser's statements for an
// h-file (its class, time limits, Latin name); the registered players'
// Latin names, PINs and provinces are read for it.
func (s *Service) ExportEventWith(ctx context.Context, w io.Writer, id int64, format string, opts H9Options) (contentType, filename string, err error) {
	r, err := s.EventReport(ctx, id)
	if err != nil {
		return "", "", err
	}
	switch format {
	case "sgf_zip":
		if err := s.loadRecords(ctx, &r); err != nil {
			return "", "", err
		}
	case "h9":
		if err := opts.check(); err != nil {
			return "", "", err
		}
		var ids []int64
		for _, p := range r.Participants {
			if p.PlayerID != 0 {
				ids = append(ids, p.PlayerID)
			}
		}
		if opts.Players, err = registry.PlayersByID(ctx, s.db, ids); err != nil {
			return "", "", err
		}
		base := fmt.Sprintf("tournament-%d", r.Event.ID)
		return "text/plain; charset=utf-8", base + ".h9", WriteH9With(w, r, opts)
	}
	return Export(w, r, format)
}

// loadRecords fills in the SGF bodies of a report's games.
func (s *Service) loadRecords(ctx context.Context, r *Report) error {
	rows, err := s.db.Query(ctx, `SELECT round, board, record FROM tournament_games WHERE tournament_id = $1 AND record <> ''`, r.Event.ID)
	if err != nil {
		return fmt.Errorf("records of tournament %d: %w", r.Event.ID, err)
	}
	defer rows.Close()
	type at struct{ round, board int }
	records := map[at]string{}
	for rows.Next() {
		var k at
		var rec string
		if err := rows.Scan(&k.round, &k.board, &rec); err != nil {
			return fmt.Errorf("records of tournament %d: %w", r.Event.ID, err)
		}
		records[k] = rec
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for i := range r.Rounds {
		for j := range r.Rounds[i].Games {
			g := &r.Rounds[i].Games[j]
			g.Record = records[at{g.Round, g.Board}]
		}
	}
	return nil
}

// Export writes the event as an EGD h-file ("h9"), an OpenGotha tournament
// file ("opengotha"), CSV standings ("csv") or a zip of the SGF records
// ("sgf_zip"), and names the file and its type.
func Export(w io.Writer, r Report, format string) (contentType, filename string, err error) {
	base := fmt.Sprintf("tournament-%d", r.Event.ID)
	switch format {
	case "h9":
		return "text/plain; charset=utf-8", base + ".h9", WriteH9(w, r)
	case "csv":
		return "text/csv; charset=utf-8", base + "-standings.csv", WriteStandingsCSV(w, r)
	case "opengotha":
		return "application/xml; charset=utf-8", base + ".xml", WriteOpenGotha(w, r)
	case "sgf_zip":
		_, err := WriteSGFArchive(w, r)
		return "application/zip", base + "-games.zip", err
	}
	return "", "", ReasonExportFormat.OnField("format", "value", format)
}
