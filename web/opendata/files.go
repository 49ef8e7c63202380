package opendata

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
)

// listPage is how many rows of a list one read brings: the list is
// written a page at a time, so its size bounds nothing but the time.
const listPage = 500

// listKind is a rating list's format.
type listKind int

const (
	egdList listKind = iota // the EGD's fixed-width text, ISO-8859-15
	csvList                 // CSV, UTF-8
)

// ratingListColumns are ratings.csv's columns.
var ratingListColumns = []string{"place", "registry_number", "name", "latin_name", "egd_pin", "external_ids", "province_code",
	"province", "rank", "declared_rank", "rating", "rating_sd", "estimated_rank", "events", "games", "last_event", "last_event_date"}

// ratingList serves the registered players' rating list, national or of
// the path's province, strongest first; the players the public search
// does not list (minors, merged records) are left out.
func (f *Files) ratingList(kind listKind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		code, ok := province(r)
		if !ok {
			f.site.Fail(w, r, ledger.ErrNotFound)
			return
		}
		v, err := f.versionOf(ctx, true)
		if err != nil {
			f.site.Fail(w, r, err)
			return
		}
		if v.answered(w, r) {
			return
		}
		// the first page before the status, so that a failing read is an
		// error page rather than a cut file
		page, err := f.src.Ratings.ListedPage(ctx, code, book.ListCursor{}, listPage)
		if err != nil {
			f.site.Fail(w, r, err)
			return
		}
		name := "ratings"
		if code != "" {
			name += "-" + code
		}
		bw := bufio.NewWriterSize(w, 32<<10)
		var row func(place int, x book.Listed, p registry.Player) error
		endPage := bw.Flush
		switch kind {
		case egdList:
			w.Header().Set("Content-Type", "text/plain; charset=ISO-8859-15")
			w.Header().Set("Content-Disposition", `inline; filename="`+name+`.txt"`)
			title := "Rating list of the dankyu registry: registered players, "
			if code == "" {
				title += "all provinces"
			} else {
				p, _ := registry.ProvinceByCode(code)
				title += p.NameEN + " (" + p.ISOCode() + ")"
			}
			for _, l := range egdHeader(asciiOnly(title), asciiOnly(f.base(r)+r.URL.Path), f.now().In(ledger.ChinaTime)) {
				_, _ = bw.Write(latin1(l + "\n"))
			}
			row = func(_ int, x book.Listed, p registry.Player) error {
				e, ok := egdRowOf(x, p)
				if !ok {
					return nil // no PIN column or no Latin letters: in the CSV only
				}
				_, err := bw.Write(latin1(e.line() + "\n"))
				return err
			}
		case csvList:
			w.Header().Set("Content-Type", "text/csv; charset=utf-8; header=present")
			w.Header().Set("Content-Disposition", `inline; filename="`+name+`.csv"`)
			cw := csv.NewWriter(w)
			_ = cw.Write(ratingListColumns)
			row = func(place int, x book.Listed, p registry.Player) error { return cw.Write(ratingCSVRow(place, x, p)) }
			endPage = func() error { cw.Flush(); return cw.Error() }
		}
		place := 0
		for {
			ids := make([]int64, 0, len(page))
			for _, x := range page {
				ids = append(ids, x.PlayerID)
			}
			listed, err := f.src.Players.PubliclyListed(ctx, ids)
			if err != nil {
				f.aborted(r, err)
			}
			for _, x := range page {
				p, ok := listed[x.PlayerID]
				if !ok {
					continue
				}
				place++
				if err := row(place, x, p); err != nil {
					f.aborted(r, err)
				}
			}
			if err := endPage(); err != nil {
				f.aborted(r, err)
			}
			if len(page) < listPage {
				break
			}
			if page, err = f.src.Ratings.ListedPage(ctx, code, page[len(page)-1].Cursor(), listPage); err != nil {
				f.aborted(r, err)
			}
		}
	}
}

// egdRowOf is a listed player's row of the EGD list; ok is false when he
// has no PIN column or no name in its letters.
func egdRowOf(x book.Listed, p registry.Player) (egdRow, bool) {
	pin, ok := egdPin(p)
	if !ok {
		return egdRow{}, false
	}
	surname, given, ok := egdName(p.LatinOf())
	if !ok {
		return egdRow{}, false
	}
	last := "--"
	if x.LastEvent != 0 {
		last = "T" + strconv.FormatInt(x.LastEvent, 10)
	}
	return egdRow{PIN: pin, Surname: surname, Given: given, Country: "CN", Club: egdClub(p.ProvinceCode),
		Grade: egdGrade(p, x.Estimate), GoR: egdRating(x.Rating.Rating), Events: x.Events, Last: last}, true
}

// ratingCSVRow is a listed player's row of ratings.csv.
func ratingCSVRow(place int, x book.Listed, p registry.Player) []string {
	ids := make([]string, 0, len(p.ExternalIDs))
	for scheme, id := range p.ExternalIDs {
		ids = append(ids, scheme+":"+id)
	}
	sort.Strings(ids)
	prov := ""
	if pr, ok := registry.ProvinceByCode(p.ProvinceCode); ok {
		prov = pr.NameZH
	}
	last, lastDate := "", ""
	if x.LastEvent != 0 {
		last, lastDate = strconv.FormatInt(x.LastEvent, 10), x.LastDate
	}
	return []string{strconv.Itoa(place), strconv.FormatInt(p.ID, 10), text(p.Name), text(p.LatinOf()), p.ExternalIDs["egd"],
		strings.Join(ids, ";"), p.ProvinceCode, prov, p.Rank.String(), p.DeclaredRank.String(),
		strconv.FormatFloat(x.Rating.Rating, 'f', 1, 64), strconv.FormatFloat(x.SD, 'f', 1, 64),
		registry.Rank(x.Estimate.Rank).String(), strconv.Itoa(x.Events), strconv.Itoa(x.Games), last, lastDate}
}

// text is a free-text cell: one line, and safe in a spreadsheet (a leading
// = + - @ is not taken for a formula).
func text(s string) string { return ledger.SpreadsheetCell(ledger.OneLine(s)) }

// historyColumns are a player's ratings.csv's columns.
var historyColumns = []string{"registry_number", "date", "tournament", "event_name", "games", "wins", "rating", "rating_sd",
	"estimated_rank", "computed_by"}

// history serves a player's rating history, oldest first: what his page's
// rating section shows (for a minor too, as the page shows it).
func (f *Files) history(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		f.site.Fail(w, r, ledger.ErrNotFound)
		return
	}
	v, err := f.versionOf(ctx, false)
	if err != nil {
		f.site.Fail(w, r, err)
		return
	}
	if v.answered(w, r) {
		return
	}
	if _, err := f.src.Players.GetPlayer(ctx, id); err != nil {
		f.site.Fail(w, r, err)
		return
	}
	rt, err := f.src.Ratings.PlayerRating(ctx, id)
	if err != nil && !errors.Is(err, ledger.ErrNotFound) {
		f.site.Fail(w, r, err)
		return
	}
	rows := [][]string{historyColumns}
	for _, h := range rt.History {
		rows = append(rows, []string{strconv.FormatInt(id, 10), h.Date.Format(time.DateOnly), strconv.FormatInt(h.Tournament, 10),
			text(h.EventName), strconv.Itoa(h.Games), strconv.FormatFloat(h.Wins, 'f', -1, 64),
			strconv.FormatFloat(h.Rating, 'f', 1, 64), strconv.FormatFloat(h.SD, 'f', 1, 64),
			registry.Rank(h.Estimate.Rank).String(), h.ComputedBy})
	}
	sendCSV(w, r, fmt.Sprintf("player-%d-ratings.csv", id), rows)
}

// sendCSV writes a small table (one that a page shows whole) as CSV.
func sendCSV(w http.ResponseWriter, _ *http.Request, name string, rows [][]string) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8; header=present")
	w.Header().Set("Content-Disposition", `inline; filename="`+name+`"`)
	cw := csv.NewWriter(w)
	_ = cw.WriteAll(rows)
}

// tournamentColumns are tournaments.csv's columns.
var tournamentColumns = []string{"id", "name", "organiser_prefix", "province_code", "level", "system", "start_date", "end_date",
	"venue", "rounds", "status", "team", "dan_grade"}

// tournaments serves every event, by id, a page at a time.
func (f *Files) tournaments(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	v, err := f.versionOf(ctx, false)
	if err != nil {
		f.site.Fail(w, r, err)
		return
	}
	if v.answered(w, r) {
		return
	}
	page, err := f.src.Tournaments.EventsAfter(ctx, 0, listPage)
	if err != nil {
		f.site.Fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8; header=present")
	w.Header().Set("Content-Disposition", `inline; filename="tournaments.csv"`)
	cw := csv.NewWriter(w)
	_ = cw.Write(tournamentColumns)
	for {
		for _, e := range page {
			code := ""
			if p, ok := registry.ProvinceByPrefix(e.OrganiserPrefix); ok && p.Prefix != registry.AssociationPrefix {
				code = p.Code
			}
			_ = cw.Write([]string{strconv.FormatInt(e.ID, 10), text(e.Name), e.OrganiserPrefix, code, string(e.Level), string(e.System),
				e.Start.Format(time.DateOnly), e.End.Format(time.DateOnly), text(e.Venue), strconv.Itoa(e.Rounds), e.Status,
				strconv.FormatBool(e.Team), strconv.FormatBool(e.DanGrade)})
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			f.aborted(r, err)
		}
		if len(page) < listPage {
			break
		}
		if page, err = f.src.Tournaments.EventsAfter(ctx, page[len(page)-1].ID, listPage); err != nil {
			f.aborted(r, err)
		}
	}
}

// statisticsColumns are certificates.csv's columns.
var statisticsColumns = []string{"year", "province_code", "province_prefix", "province", "province_en", "rank", "certificates", "revoked"}

// statistics serves the certificates by year, province and rank.
func (f *Files) statistics(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	v, err := f.versionOf(ctx, false)
	if err != nil {
		f.site.Fail(w, r, err)
		return
	}
	if v.answered(w, r) {
		return
	}
	cells, err := f.src.Certs.CertificateCounts(ctx)
	if err != nil {
		f.site.Fail(w, r, err)
		return
	}
	rows := [][]string{statisticsColumns}
	for _, c := range cells {
		code, zh, en := "", "", ""
		if p, ok := registry.ProvinceByPrefix(c.Prefix); ok {
			code, zh, en = p.Code, p.NameZH, p.NameEN
		}
		rows = append(rows, []string{strconv.Itoa(c.Year), code, c.Prefix, zh, en, c.Rank.String(),
			strconv.Itoa(c.Certificates), strconv.Itoa(c.Revoked)})
	}
	sendCSV(w, r, "certificates.csv", rows)
}
