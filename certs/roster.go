package certs

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"time"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// utf8BOM makes Excel read the CSV as UTF-8 instead of the locale's code page.
const utf8BOM = "\ufeff"

// rosterHeader names the columns in Chinese and English, as the
// association's staff and agencies read both.
var rosterHeader = []string{
	"证书编号 Certificate", "姓名 Name", "性别 Gender", "出生日期 Birth date", "证件类型 ID kind", "证件号码 ID number",
	"段位 Rank", "发证日期 Issue date", "发证单位 Issuer", "依据 Basis", "运动员等级 Athlete grade", "状态 Status",
}

// WriteRoster writes the record every agency keeps of its province's
// 1-dan-and-above holders: each valid dan certificate with the holder's full
// identity, as CSV in UTF-8 with a BOM. It is the agency's own record for
// the association's backup, so only that agency and staff may export it.
func (s *Service) WriteRoster(ctx context.Context, actor ledger.Actor, agency string, w io.Writer) (int, error) {
	if err := access.RequireSignedIn(actor, access.ExportRoster); err != nil {
		return 0, err
	}
	if actor.Kind == ledger.AgencyActor && agency == "" {
		agency = actor.Agency
	}
	prov, ok := registry.ProvinceByPrefix(agency)
	if !ok || agency == registry.AssociationPrefix {
		return 0, ReasonRosterAgency.OnField("agency", "value", agency)
	}
	if err := s.policy.Require(ctx, s.db, actor, access.ExportRoster, agency); err != nil {
		return 0, err
	}
	// the province's players as the registry has them now (a player who
	// moved is on his new province's roster), then their certificates
	players, err := registry.PlayersOfProvince(ctx, s.db, prov.Code)
	if err != nil {
		return 0, fmt.Errorf("roster of %s: %w", agency, err)
	}
	ids := make([]int64, 0, len(players))
	for id := range players {
		ids = append(ids, id)
	}
	rows, err := s.db.Query(ctx, `SELECT coalesce(c.number, ''), c.player_id,
		c.rank, c.issue_date, c.issuing_prefix, c.basis, c.athlete_grade, c.status
		FROM certificates c
		WHERE c.player_id = ANY($1) AND c.kind = 'dan' AND c.status = 'valid'
		ORDER BY c.issue_date, c.number`, ids)
	if err != nil {
		return 0, fmt.Errorf("roster of %s: %w", agency, err)
	}
	defer rows.Close()
	if _, err := io.WriteString(w, utf8BOM); err != nil {
		return 0, err
	}
	cw := csv.NewWriter(w)
	cw.UseCRLF = true // what Excel writes and expects
	if err := cw.Write(rosterHeader); err != nil {
		return 0, err
	}
	n := 0
	for rows.Next() {
		var (
			number, issuer, basis, grade, status string
			playerID                             int64
			issued                               time.Time
			rank                                 registry.Rank
		)
		if err := rows.Scan(&number, &playerID, &rank, &issued, &issuer, &basis, &grade, &status); err != nil {
			return n, fmt.Errorf("roster of %s: %w", agency, err)
		}
		p := players[playerID]
		row := []string{number, p.Name, string(p.Gender), p.BirthDate.Format(time.DateOnly), string(p.IDKind), p.IDNumber,
			rank.Chinese(), issued.Format(time.DateOnly), issuer, basis, string(grade), status}
		for i := range row { // names typed by agencies must not run as spreadsheet formulas
			row[i] = ledger.SpreadsheetCell(row[i])
		}
		if err := cw.Write(row); err != nil {
			return n, err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return n, fmt.Errorf("roster of %s: %w", agency, err)
	}
	cw.Flush()
	return n, cw.Error()
}
