package certs

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/xuri/excelize/v2"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// utf8BOM makes Excel read the CSV as UTF-8 instead of the locale's code page.
const utf8BOM = "\ufeff"

// rosterHeader names the columns in Chinese and English, as the
// association's staff and agencies read both. Every certificate is the
// association's; the agency applied for it and the prefix names the
// province that numbers it.
func rosterHeader() []string {
	return []string{
		"证书编号 Certificate", "姓名 Name", "性别 Gender", "出生日期 Birth date", "证件类型 ID kind", "证件号码 ID number",
		"段位 Rank", "发证日期 Issue date", "发证单位 Issuer", "申请单位 Applicant", "编号前缀 Prefix", "依据 Basis",
		"运动员等级 Athlete grade", "状态 Status",
	}
}

// RosterRow is one holder's certificate as the roster lists it, in the
// words a clerk reads (性别 男/女, 居民身份证, 比赛成绩 …).
type RosterRow struct {
	Number, Name, Gender, BirthDate, IDKind, IDNumber string
	Rank, IssueDate, Issuer, Applicant, Prefix        string
	Basis, AthleteGrade, Status                       string
}

func (r RosterRow) cells() []string {
	return []string{r.Number, r.Name, r.Gender, r.BirthDate, r.IDKind, r.IDNumber, r.Rank, r.IssueDate, r.Issuer,
		r.Applicant, r.Prefix, r.Basis, r.AthleteGrade, r.Status}
}

func genderZH(g registry.Gender) string {
	if g == registry.Female {
		return "女"
	}
	return "男"
}

func idKindZH(k registry.IdentityKind) string {
	if k == registry.Passport {
		return "护照"
	}
	return "居民身份证"
}

func basisZH(b Basis) string {
	switch b {
	case Tournament:
		return "比赛成绩"
	case Appraisal:
		return "鉴定"
	case NationalResult:
		return "全国比赛成绩"
	case NationalChampionship:
		return "全国冠军"
	}
	return string(b)
}

func gradeZH(g AthleteGrade) string {
	switch g {
	case FirstClass:
		return "一级运动员"
	case SecondClass:
		return "二级运动员"
	}
	return "—"
}

// rosterAgency checks who may have the roster of which agency, and returns
// the agency's province.
func (s *Service) rosterAgency(ctx context.Context, actor ledger.Actor, agency string) (string, registry.Province, error) {
	if err := access.RequireSignedIn(actor, access.ExportRoster); err != nil {
		return "", registry.Province{}, err
	}
	if actor.Kind == ledger.AgencyActor && agency == "" {
		agency = actor.Agency
	}
	prov, ok := registry.ProvinceByPrefix(agency)
	if !ok || agency == registry.AssociationPrefix {
		return "", registry.Province{}, ReasonRosterAgency.OnField("agency", "value", agency)
	}
	if err := s.policy.Require(ctx, s.db, actor, access.ExportRoster, agency); err != nil {
		return "", registry.Province{}, err
	}
	return agency, prov, nil
}

// roster is the agency's roster, once the actor may export it.
func (s *Service) roster(ctx context.Context, actor ledger.Actor, agency string) ([]RosterRow, error) {
	agency, prov, err := s.rosterAgency(ctx, actor, agency)
	if err != nil {
		return nil, err
	}
	rows, err := rosterRows(ctx, s.db, prov)
	if err != nil {
		return nil, fmt.Errorf("roster of %s: %w", agency, err)
	}
	return rows, nil
}

// rosterRows lists the record every agency keeps of its province's
// 1-dan-and-above holders: each valid dan certificate with the holder's
// full identity, as q sees them.
func rosterRows(ctx context.Context, q ledger.Querier, prov registry.Province) ([]RosterRow, error) {
	// the province's players as the registry has them now (a player who
	// moved is on his new province's roster), then their certificates
	players, err := registry.PlayersOfProvince(ctx, q, prov.Code)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(players))
	for id := range players {
		ids = append(ids, id)
	}
	rows, err := q.Query(ctx, `SELECT coalesce(c.number, ''), c.player_id,
		c.rank, c.issue_date, c.issuing_prefix, c.issuing_body, c.basis, c.athlete_grade, c.status
		FROM certificates c
		WHERE c.player_id = ANY($1) AND c.kind = 'dan' AND c.status = 'valid'
		ORDER BY c.issue_date, c.number`, ids)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (RosterRow, error) {
		var (
			playerID      int64
			rank          registry.Rank
			issued        time.Time
			prefix, body  string
			basis, status string
			grade         AthleteGrade
			row           RosterRow
		)
		if err := r.Scan(&row.Number, &playerID, &rank, &issued, &prefix, &body, &basis, &grade, &status); err != nil {
			return row, err
		}
		p := players[playerID]
		if prefix == registry.AssociationPrefix {
			body = IssuerZH // the association applied for its own 6 and 7 dan
		}
		row.Name, row.Gender, row.BirthDate = p.Name, genderZH(p.Gender), p.BirthDate.Format(time.DateOnly)
		row.IDKind, row.IDNumber, row.Rank = idKindZH(p.IDKind), p.IDNumber, rank.Chinese()
		row.IssueDate, row.Issuer, row.Applicant, row.Prefix = issued.Format(time.DateOnly), IssuerZH, body, prefix
		row.Basis, row.AthleteGrade, row.Status = basisZH(Basis(basis)), gradeZH(grade), "有效"
		return row, nil
	})
}

// WriteRoster writes an agency's roster as CSV in UTF-8 with a BOM (so
// Excel opens it). It is the agency's own record for the association's
// backup, so only that agency (while active) and staff may export it.
func (s *Service) WriteRoster(ctx context.Context, actor ledger.Actor, agency string, w io.Writer) (int, error) {
	rows, err := s.roster(ctx, actor, agency)
	if err != nil {
		return 0, err
	}
	if _, err := io.WriteString(w, utf8BOM); err != nil {
		return 0, err
	}
	cw := csv.NewWriter(w)
	cw.UseCRLF = true // what Excel writes and expects
	if err := cw.Write(rosterHeader()); err != nil {
		return 0, err
	}
	for _, r := range rows {
		cells := r.cells()
		for i := range cells { // names typed by agencies must not run as spreadsheet formulas
			cells[i] = ledger.SpreadsheetCell(cells[i])
		}
		if err := cw.Write(cells); err != nil {
			return 0, err
		}
	}
	cw.Flush()
	return len(rows), cw.Error()
}

// WriteRosterXLSX writes the roster as an Excel workbook. Every cell is a
// text cell, so a spreadsheet never turns an 18-digit ID number into
// 1.10108E+17 or drops a certificate number's leading zeros.
func (s *Service) WriteRosterXLSX(ctx context.Context, actor ledger.Actor, agency string, w io.Writer) (int, error) {
	rows, err := s.roster(ctx, actor, agency)
	if err != nil {
		return 0, err
	}
	f := excelize.NewFile()
	defer f.Close()
	const sheet = "名册"
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return 0, fmt.Errorf("roster workbook: %w", err)
	}
	text, err := f.NewStyle(&excelize.Style{NumFmt: 49}) // "@": text
	if err != nil {
		return 0, fmt.Errorf("roster workbook: %w", err)
	}
	write := func(line int, cells []string) error {
		for col, v := range cells {
			cell, err := excelize.CoordinatesToCellName(col+1, line)
			if err != nil {
				return err
			}
			if err := f.SetCellStr(sheet, cell, v); err != nil {
				return err
			}
			if err := f.SetCellStyle(sheet, cell, cell, text); err != nil {
				return err
			}
		}
		return nil
	}
	if err := write(1, rosterHeader()); err != nil {
		return 0, fmt.Errorf("roster workbook: %w", err)
	}
	for i, r := range rows {
		if err := write(i+2, r.cells()); err != nil {
			return 0, fmt.Errorf("roster workbook: %w", err)
		}
	}
	if err := f.Write(w); err != nil {
		return 0, fmt.Errorf("roster workbook: %w", err)
	}
	return len(rows), nil
}
