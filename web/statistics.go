package web

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/web/draw"
	"github.com/dankyu/dankyu/web/kit"
)

// Statistics is what the statistics pages read.
type Statistics interface {
	Statistics(ctx context.Context, actor ledger.Actor, year int, details bool) (certs.Stats, error)
}

// statsPages are the public statistics, the staff's detailed ones, and
// their tables as CSV.
type statsPages struct {
	*kit.Site
	stats Statistics
}

func (p *statsPages) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /statistics", p.statistics(false))
	mux.HandleFunc("GET /workspace/statistics", p.statistics(true))
	mux.HandleFunc("GET /statistics.csv", p.Get(p.csv))
}

// statTable is one table of the statistics, with its chart when it has one.
type statTable struct {
	Key     string // the table's name in ?table=
	Title   string
	Columns []string
	Rows    [][]string
	Chart   *draw.Bars
}

// statsYear reads ?year=; empty is the clock's year (0), anything not a
// number a year the service refuses.
func statsYear(r *http.Request) int {
	v := strings.TrimSpace(r.URL.Query().Get("year"))
	if v == "" {
		return 0
	}
	y, err := strconv.Atoi(v)
	if err != nil {
		return -1
	}
	return y
}

func (p *statsPages) statistics(details bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a := p.Actor(r)
		if details && a.Kind == ledger.Public {
			http.Redirect(w, r, "/login", http.StatusSeeOther)
			return
		}
		title := "statistics"
		if details {
			title = "statistics_staff"
		}
		pg := p.Page(w, r, title)
		st, err := p.stats.Statistics(r.Context(), a, statsYear(r), details)
		if err != nil {
			if ledger.KindOf(err) == ledger.Internal {
				p.Fail(w, r, err)
				return
			}
			p.Render(w, r, kit.HTTPStatus(err), kit.MessagePage(pg, pg.T["error"], p.UserError(r, pg, err)))
			return
		}
		p.Render(w, r, http.StatusOK, statisticsPage(pg, st, statTables(pg, st), details))
	}
}

// csv downloads one table (?table=) of the statistics in the page's
// language, UTF-8 with a BOM for spreadsheet programs.
func (p *statsPages) csv(w http.ResponseWriter, r *http.Request) error {
	pg := p.Page(w, r, "statistics")
	key := r.URL.Query().Get("table")
	st, err := p.stats.Statistics(r.Context(), p.Actor(r), statsYear(r), key == "agencies")
	if err != nil {
		http.Error(w, p.UserError(r, pg, err), kit.HTTPStatus(err))
		return nil
	}
	var table *statTable
	for _, t := range statTables(pg, st) {
		if t.Key == key {
			table = &t
			break
		}
	}
	if table == nil {
		http.Error(w, pg.T["statistics_no_table"], http.StatusNotFound)
		return nil
	}
	data, err := kit.SpreadsheetCSV(append([][]string{table.Columns}, table.Rows...))
	if err != nil {
		return fmt.Errorf("statistics csv %s: %w", key, err)
	}
	kit.SendCSV(w, fmt.Sprintf("statistics-%d-%s.csv", st.Year, key), data)
	return nil
}

// statTables lays the statistics out as the pages' and the CSV's tables;
// the per-agency table only when the details were read.
func statTables(pg kit.Page, st certs.Stats) []statTable {
	n := strconv.Itoa
	var out []statTable

	years := statTable{Key: "years", Title: pg.T["stats_by_year"], Columns: []string{pg.T["year"], pg.T["stats_certificates"]}}
	var yl []string
	var yv []int
	for _, y := range st.Years {
		years.Rows = append(years.Rows, []string{n(y.Year), n(y.Certificates)})
		yl, yv = append(yl, n(y.Year)), append(yv, y.Certificates)
	}
	years.Chart = draw.NewBars(years.Title, yl, yv)
	out = append(out, years)

	prov := statTable{Key: "provinces", Title: fmt.Sprintf(pg.T["stats_by_province"], st.Year),
		Columns: []string{pg.T["stats_prefix"], pg.T["province"], pg.T["stats_certificates"], pg.T["stats_holders"], pg.T["stats_players"], pg.T["stats_per_10k"]}}
	var pl []string
	var pv []int
	for _, c := range st.Provinces {
		name := statsProvince(pg, c.Prefix)
		prov.Rows = append(prov.Rows, []string{c.Prefix, name, n(c.Certificates), n(c.Holders), n(c.Players),
			strconv.FormatFloat(c.HoldersPer10k(), 'f', 1, 64)})
		pl, pv = append(pl, name), append(pv, c.Certificates)
	}
	prov.Chart = draw.NewBars(prov.Title, pl, pv)
	out = append(out, prov)

	ranks := statTable{Key: "ranks", Title: fmt.Sprintf(pg.T["stats_by_rank"], st.Year), Columns: []string{pg.T["rank"], pg.T["stats_certificates"]}}
	var rl []string
	var rv []int
	for _, c := range st.Ranks {
		name := kit.RankName(pg.Lang, c.Rank)
		ranks.Rows = append(ranks.Rows, []string{name, n(c.Certificates)})
		rl, rv = append(rl, name), append(rv, c.Certificates)
	}
	ranks.Chart = draw.NewBars(ranks.Title, rl, rv)
	out = append(out, ranks)

	bases := statTable{Key: "bases", Title: fmt.Sprintf(pg.T["stats_by_basis"], st.Year), Columns: []string{pg.T["basis"], pg.T["stats_certificates"]}}
	var bl []string
	var bv []int
	for _, c := range st.Bases {
		name := pg.T["basis_"+string(c.Basis)]
		bases.Rows = append(bases.Rows, []string{name, n(c.Certificates)})
		bl, bv = append(bl, name), append(bv, c.Certificates)
	}
	bases.Chart = draw.NewBars(bases.Title, bl, bv)
	out = append(out, bases)

	nc := st.Notices
	out = append(out, statTable{Key: "notices", Title: fmt.Sprintf(pg.T["stats_notices"], st.Year),
		Columns: []string{pg.T["stats_what"], pg.T["stats_count"]},
		Rows: [][]string{
			{pg.T["stats_notices_published"], n(nc.Notices)}, {pg.T["notice_open"], n(nc.Open)}, {pg.T["notice_issued"], n(nc.Issued)},
			{pg.T["notice_failed"], n(nc.Failed)}, {pg.T["objections"], n(nc.Objections)}, {pg.T["stats_pending"], n(nc.Pending)},
			{pg.T["stats_upheld"], n(nc.Upheld)}, {pg.T["stats_dismissed"], n(nc.Dismissed)}, {pg.T["stats_withdrawn"], n(nc.Withdrawn)},
		}})

	if st.HasDetails {
		ag := statTable{Key: "agencies", Title: fmt.Sprintf(pg.T["stats_by_agency"], st.Year),
			Columns: []string{pg.T["stats_prefix"], pg.T["province"], pg.T["stats_certificates"]}}
		for _, b := range certs.Bases() {
			ag.Columns = append(ag.Columns, pg.T["basis_"+string(b)])
		}
		ag.Columns = append(ag.Columns, pg.T["stats_revoked"], pg.T["notices"], pg.T["objections"], pg.T["stats_upheld"], pg.T["stats_dismissed"])
		for _, a := range st.Agencies {
			row := []string{a.Prefix, statsProvince(pg, a.Prefix), n(a.Certificates)}
			for _, b := range certs.Bases() {
				row = append(row, n(a.ByBasis[b]))
			}
			row = append(row, n(a.Revoked), n(a.Notices.Notices), n(a.Notices.Objections), n(a.Notices.Upheld), n(a.Notices.Dismissed))
			ag.Rows = append(ag.Rows, row)
		}
		out = append(out, ag)
	}
	return out
}

// statsProvince names the province of a certificate prefix (the
// association for 000).
func statsProvince(pg kit.Page, prefix string) string {
	if prefix == registry.AssociationPrefix {
		return pg.T["association"]
	}
	if pr, ok := registry.ProvinceByPrefix(prefix); ok {
		return kit.ProvinceName(pg.Lang, pr)
	}
	return prefix
}

// csvLink is the download address of a table for the page's year.
func csvLink(st certs.Stats, key string) string {
	return "/statistics.csv?table=" + key + "&year=" + strconv.Itoa(st.Year)
}
