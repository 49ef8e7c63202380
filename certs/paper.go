package certs

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/width"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// Certificates from before the registry: twenty years of paper certificates
// whose holders must be on the rosters and whose numbers must never be
// issued again. Staff record them from the agencies' spreadsheets.

// PaperBasis is the basis of a certificate recorded from paper (what it was
// granted for is on the paper, not here).
const PaperBasis Basis = "paper_record"

// MaxPaperRows bounds one import.
const MaxPaperRows = 20000

// The refusals of paper records.
var (
	ReasonPaperColumns = ledger.NewReason(ledger.Invalid, "PAPER_COLUMNS",
		"表头缺少“{column}”列：需要证书编号、姓名、证件号码、段位、发证日期。",
		"the header has no {column} column: the file needs number, name, identity number, rank and issue date.")
	ReasonPaperTooMany = ledger.NewReason(ledger.Invalid, "PAPER_TOO_MANY",
		"一次最多导入 {max} 行，本文件至少有 {rows} 行。", "an import takes at most {max} rows; this file has at least {rows}.")
	ReasonPaperUnreadable = ledger.NewReason(ledger.Invalid, "PAPER_UNREADABLE",
		"无法读取文件：请上传逗号分隔的文本文件或电子表格。", "the file cannot be read: send a CSV or XLSX file.")
	ReasonPaperSpreadsheet = ledger.NewReason(ledger.Invalid, "PAPER_SPREADSHEET",
		"无法打开电子表格：文件已损坏或已加密。", "the spreadsheet cannot be opened: it is damaged or encrypted.")
	ReasonPaperUnzipped = ledger.NewReason(ledger.Invalid, "PAPER_UNZIPPED_TOO_LARGE",
		"电子表格解压后超过 {max} 兆字节，无法读取。", "the spreadsheet unpacks to more than {max} MB and is not read.")
	ReasonPaperDate = ledger.NewReason(ledger.Invalid, "PAPER_DATE",
		"发证日期“{value}”无效：请写成 2006-01-02、2006/1/2 或 2006年1月2日，且不晚于今天。",
		"issue date {value} is not a date like 2006-01-02, 2006/1/2 or the Chinese year-month-day, on or before today.")
	ReasonPaperYear = ledger.NewReason(ledger.Invalid, "PAPER_YEAR",
		"编号中的年份 {yy} 与发证日期 {date} 不符。", "the year {yy} in the number does not match the issue date {date}.")
	ReasonPaperKind = ledger.NewReason(ledger.Invalid, "PAPER_KIND",
		"段位证书的编号为 9 位数字，级位证书的编号以 K 开头：编号与段级位 {rank} 不符。",
		"dan certificates have 9 digits, kyu certificates start with K: the number does not fit the rank {rank}.")
	ReasonPaperPrefix = ledger.NewReason(ledger.Invalid, "PAPER_PREFIX",
		"业余6段、7段的编号以协会的 000 开头，其他段级位以省份前缀开头：编号前缀 {prefix} 与段位 {rank} 不符。",
		"6 and 7 dan are numbered by the association (000), other ranks by a province: prefix {prefix} does not fit {rank}.")
	ReasonPaperNoHolder = ledger.NewReason(ledger.Precondition, "PAPER_NO_HOLDER",
		"证件号码为 {identity} 的棋手尚未登记，请先登记该棋手。",
		"no player with identity number {identity} is registered; register the holder first.")
	ReasonPaperName = ledger.NewReason(ledger.Invalid, "PAPER_NAME",
		"姓名“{name}”与登记的棋手“{registered}”不符。", "the name {name} is not that of the registered player {registered}.")
	ReasonPaperTaken = ledger.NewReason(ledger.AlreadyExists, "PAPER_NUMBER_TAKEN",
		"证书编号 {number} 已有记录。", "certificate number {number} is already on record.")
	ReasonPaperDuplicate = ledger.NewReason(ledger.Invalid, "PAPER_DUPLICATE",
		"证书编号 {number} 在文件中出现两次（第 {first} 行）。", "certificate number {number} appears twice in the file (first on line {first}).")
	ReasonPaperOtherProvince = ledger.NewReason(ledger.PermissionDenied, "PAPER_OTHER_PROVINCE",
		"证件号码为 {identity} 的棋手不在本省登记，只能为本省棋手补录证书。",
		"the player with identity number {identity} is not registered in this province; an agency records only its own players' certificates.")
	ReasonPaperNotValid = ledger.NewReason(ledger.Precondition, "PAPER_NOT_VALID",
		"有 {count} 行存在问题且未标为跳过，未导入任何记录。", "{count} rows have problems and are not marked to be skipped; nothing was imported.")
)

// PaperInput is an import of paper certificates: a CSV (UTF-8 or GBK) or
// XLSX file as agencies keep them, checked only (DryRun) or imported, with
// the lines the importer has chosen to skip.
type PaperInput struct {
	Data   []byte
	DryRun bool
	Skip   []int // file lines (1-based, the header is line 1) left out
}

// PaperRow is one line of the file and what is wrong with it.
type PaperRow struct {
	Line     int
	Number   string // as normalised, when readable
	Name     string
	Rank     string
	Basis    Basis        // as the register states it; "" unknown
	Grade    AthleteGrade // as read, or of rank and basis; GradeUnknown when the register does not say
	Problems []*ledger.Error
	Skipped  bool
	// PlayerID and Holder are the registered player the row's identity
	// number matched (0, "": none), to show whom the row names.
	PlayerID int64
	Holder   string
}

// PaperResult is what an import found and did.
type PaperResult struct {
	Encoding string
	Rows     []PaperRow
	Bad      int // rows with problems that are not skipped
	Imported int
}

// paperColumns are the header names a sheet may use for each column.
var paperColumns = map[string][]string{
	"number":   {"证书编号", "编号", "number", "certificate"},
	"name":     {"姓名", "name"},
	"identity": {"证件号码", "身份证号码", "身份证号", "identity", "id number"},
	"rank":     {"段位", "段级位", "级别", "rank"},
	"date":     {"发证日期", "日期", "issue date", "date"},
	"body":     {"发证单位", "申请单位", "issuing body", "agency"},
	// "旧" or "old" marks a number printed in a format older than today's
	"format": {"编号格式", "格式", "format"},
	// optional: what the rank was granted for, and the athlete grade
	"basis": {"授予依据", "晋升依据", "申请依据", "依据", "取得方式", "晋段方式", "basis", "granted for"},
	"grade": {"运动员等级", "运动等级", "athlete grade", "grade"},
}

// printedNumber reads a number printed in an older format: 4 to 24 letters,
// digits, hyphens or slashes, kept as printed (upper-case, no spaces).
func printedNumber(s string) (string, bool) {
	n := strings.ToUpper(strings.Join(strings.Fields(s), ""))
	if len(n) < 4 || len(n) > 24 {
		return "", false
	}
	for _, r := range n {
		if !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r == '-' || r == '/') {
			return "", false
		}
	}
	return n, true
}

// ReasonPrintedNumber refuses an older-format number that cannot be one.
var ReasonPrintedNumber = ledger.NewReason(ledger.Invalid, "PRINTED_NUMBER",
	"旧格式编号“{value}”应为 4 到 24 位字母、数字、连字符或斜线。", "older-format number {value} is not 4 to 24 letters, digits, hyphens or slashes.")

// ImportPaper checks every row of a file of paper certificates and, unless
// it is a dry run, records them in one transaction: only when every row is
// valid or skipped. Staff only.
func (s *Service) ImportPaper(ctx context.Context, actor ledger.Actor, key string, in PaperInput) (PaperResult, error) {
	if err := s.requireStaff(ctx, actor, access.RecordRanks); err != nil {
		return PaperResult{}, err
	}
	req := struct {
		Data []byte
		Skip []int
	}{in.Data, in.Skip}
	method := "ImportPaper"
	if in.DryRun {
		key, method = "", "CheckPaper" // a dry run changes nothing to repeat
	}
	return ledger.Mutate(ctx, s.store, actor, key, method, req, func(tx *ledger.Tx, now time.Time) (PaperResult, error) {
		return s.importPaperTx(ctx, tx, now, actor, in, "")
	})
}

// importPaperTx checks (and unless a dry run, records) a file of paper
// certificates in tx; with province set, every holder must be registered
// in that province (an agency's own submission).
func (s *Service) importPaperTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, in PaperInput, province string) (PaperResult, error) {
	records, encoding, err := readSheet(in.Data)
	if err != nil {
		return PaperResult{}, err
	}
	if len(records) > MaxPaperRows+1 {
		return PaperResult{}, ReasonPaperTooMany.OnField("file", "max", strconv.Itoa(MaxPaperRows), "rows", strconv.Itoa(len(records)-1))
	}
	cols, err := headerColumns(records)
	if err != nil {
		return PaperResult{}, err
	}
	res := PaperResult{Encoding: encoding}
	type checked struct {
		row     PaperRow
		player  registry.Player
		number  Number
		printed string // an older format's number as printed
		rank    registry.Rank
		date    time.Time
		body    string
		id      string // the identity number as written
		first   bool   // the number's first line: asked of the certificates
	}
	var all, good []checked
	firstLine := map[string]int{}
	skip := make(map[int]bool, len(in.Skip))
	for _, l := range in.Skip {
		skip[l] = true
	}
	for i, rec := range records[1:] {
		line := i + 2
		if line%1000 == 0 {
			if err := ctx.Err(); err != nil {
				return PaperResult{}, err
			}
		}
		c := checked{row: PaperRow{Line: line, Skipped: skip[line]}}
		field := func(name string) string {
			if j, ok := cols[name]; ok && j < len(rec) {
				return strings.TrimSpace(width.Fold.String(rec[j]))
			}
			return ""
		}
		if strings.Join(rec, "") == "" {
			continue // an empty line
		}
		problem := func(e *ledger.Error) { c.row.Problems = append(c.row.Problems, e) }
		c.row.Name, c.row.Rank, c.body = field("name"), field("rank"), field("body")
		if f := strings.ToLower(field("format")); f == "旧" || f == "old" || f == "older" {
			if pn, ok := printedNumber(field("number")); ok {
				c.printed, c.row.Number = pn, pn
			} else {
				problem(ReasonPrintedNumber.OnField("number", "value", field("number")))
			}
		} else if n, err := ParseNumber(field("number")); err != nil {
			if e, ok := ledger.AsError(err); ok {
				problem(e)
			}
		} else {
			c.number, c.row.Number = n, n.String()
		}
		rank, err := registry.ParseRank(strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(c.row.Rank, "段"), "级")) + rankSuffix(c.row.Rank))
		if err != nil || rank == registry.NoRank || rank == registry.HonoraryDan8 {
			problem(registry.ReasonRank.OnField("rank", "value", c.row.Rank))
		}
		c.rank = rank
		if b, ok := paperBasisOf(field("basis")); ok {
			c.row.Basis = b
		} else {
			problem(ReasonPaperBasis.OnField("basis", "value", field("basis")))
		}
		if g, perr := paperGrade(field("grade"), rank, c.row.Basis); perr != nil {
			problem(perr)
		} else {
			c.row.Grade = g
		}
		date, ok := paperDate(field("date"), now)
		if !ok {
			problem(ReasonPaperDate.OnField("date", "value", field("date")))
		}
		c.date = date
		if c.row.Number != "" && c.printed == "" && err == nil && ok {
			switch {
			case (c.number.Kind == DanSeries) != (rank > 0):
				problem(ReasonPaperKind.FieldWith("number", ledger.Words("rank", rank.Chinese(), rank.String())))
			case AssociationIssues(rank) != (c.number.Prefix == registry.AssociationPrefix):
				problem(ReasonPaperPrefix.FieldWith("number", ledger.Value("prefix", c.number.Prefix), ledger.Words("rank", rank.Chinese(), rank.String())))
			case c.number.Year != date.Year()%100:
				problem(ReasonPaperYear.OnField("number", "yy", fmt.Sprintf("%02d", c.number.Year), "date", date.Format(time.DateOnly)))
			}
		}
		if c.row.Number != "" {
			if first, dup := firstLine[c.row.Number]; dup {
				problem(ReasonPaperDuplicate.OnField("number", "number", c.row.Number, "first", strconv.Itoa(first)))
			} else {
				firstLine[c.row.Number] = line
				c.first = true
			}
		}
		c.id = field("identity")
		all = append(all, c)
	}
	// the numbers on record and the holders, each in one query: a query
	// per row made a 20 000-row file cost 8 s
	numbers, ids := make([]string, 0, len(firstLine)), make([]string, 0, len(all))
	for n := range firstLine {
		numbers = append(numbers, n)
	}
	for _, c := range all {
		ids = append(ids, c.id)
	}
	taken, err := numbersOnRecord(ctx, tx, numbers)
	if err != nil {
		return PaperResult{}, err
	}
	holders, err := registry.PlayersByIdentity(ctx, tx, ids)
	if err != nil {
		return PaperResult{}, err
	}
	for _, c := range all {
		problem := func(e *ledger.Error) { c.row.Problems = append(c.row.Problems, e) }
		if c.first && taken[c.row.Number] {
			problem(ReasonPaperTaken.OnField("number", "number", c.row.Number))
		}
		id := c.id
		p, found := holders[id]
		switch {
		case !found:
			problem(ReasonPaperNoHolder.OnField("identity", "identity", registry.MaskIdentity(id)))
		case !sameName(c.row.Name, p.Name):
			problem(ReasonPaperName.OnField("name", "name", c.row.Name, "registered", p.Name))
		case province != "" && p.ProvinceCode != province:
			problem(ReasonPaperOtherProvince.OnField("identity", "identity", registry.MaskIdentity(id)))
		}
		c.player = p
		if found {
			c.row.PlayerID, c.row.Holder = p.ID, p.Name
		}
		if len(c.row.Problems) > 0 && !c.row.Skipped {
			res.Bad++
		}
		if len(c.row.Problems) == 0 && !c.row.Skipped {
			good = append(good, c)
		}
		res.Rows = append(res.Rows, c.row)
	}
	if in.DryRun {
		return res, nil
	}
	if res.Bad > 0 {
		return PaperResult{}, ReasonPaperNotValid.New("count", strconv.Itoa(res.Bad))
	}
	touched := map[int64]bool{}
	for _, c := range good {
		at := time.Date(c.date.Year(), c.date.Month(), c.date.Day(), 0, 0, 0, 0, ledger.ChinaTime)
		body := c.body
		if c.number.Prefix == registry.AssociationPrefix || AssociationIssues(c.rank) {
			body = ""
		}
		var number, serial, printed any = c.number.String(), c.number.Serial, nil
		kind, prefix, yy := c.number.Kind, c.number.Prefix, c.number.Year
		if c.printed != "" { // no serial of today's series: numbered by the holder's province (000 for 6–7 dan)
			number, serial, printed = nil, nil, c.printed
			kind, yy = KindOf(c.rank), c.date.Year()%100
			prov, _ := registry.ProvinceByCode(c.player.ProvinceCode)
			prefix = prov.Prefix
			if AssociationIssues(c.rank) {
				prefix = registry.AssociationPrefix
			}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO certificates (number, kind, issuing_prefix, year, serial, player_id, rank, previous_rank,
			basis, issued_at, granted_at, issue_date, athlete_grade, status, holder_name, issuing_body, from_paper, printed_number, paper_basis)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, $15, 'valid', $12, $13, true, $14, $16)`,
			number, kind, prefix, yy, serial, c.player.ID, c.rank, c.player.Rank,
			PaperBasis, at, c.date, c.player.Name, body, printed, c.row.Grade, c.row.Basis); err != nil {
			return PaperResult{}, ledger.PgErr(err, "record paper certificate "+c.row.Number)
		}
		if err := ledger.Append(ctx, tx, now, actor, "certificate", c.row.Number,
			CertificateRecordedFromPaperPayload{AthleteGrade: c.row.Grade, Holder: c.player.Name, IssueDate: c.date.Format(time.DateOnly),
				Issuer: prefix, IssuingBody: body, Line: c.row.Line, PaperBasis: c.row.Basis, PlayerID: c.player.ID, Rank: c.rank.String()}); err != nil {
			return PaperResult{}, err
		}
		touched[c.player.ID] = true
		res.Imported++
	}
	for id := range touched { // a holder's rank follows his newest valid certificate, paper or not
		if err := s.followRank(ctx, tx, now, actor, id, "certificates recorded from paper"); err != nil {
			return PaperResult{}, err
		}
	}
	return res, nil
}

// numbersOnRecord are those of numbers a certificate already holds, as
// its number or its printed (older-format) number.
func numbersOnRecord(ctx context.Context, tx *ledger.Tx, numbers []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(numbers) == 0 {
		return out, nil
	}
	rows, err := tx.Query(ctx, `SELECT number FROM certificates WHERE number = ANY($1)
		UNION SELECT printed_number FROM certificates WHERE printed_number = ANY($1)`, numbers)
	if err != nil {
		return nil, ledger.PgErr(err, "numbers on record")
	}
	taken, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, ledger.PgErr(err, "numbers on record")
	}
	for _, n := range taken {
		out[n] = true
	}
	return out, nil
}

// The refusals of a register's basis and athlete grade columns.
var (
	ReasonPaperBasis = ledger.NewReason(ledger.Invalid, "PAPER_BASIS",
		"授予依据“{value}”无法识别：应为比赛（段位赛、升段赛等）、鉴定、全国比赛、全国冠军，或留空、写“不详”。",
		"basis {value} is not known: write tournament, appraisal, national result, national champion, or leave it empty or unknown.")
	ReasonPaperGrade = ledger.NewReason(ledger.Invalid, "PAPER_GRADE",
		"运动员等级“{value}”无法识别，或与{rank}（依据：{basis}）不符：{rank}可获的等级为{allowed}。",
		"athlete grade {value} is not known or does not fit {rank} on basis {basis}: {rank} carries {allowed}.")
)

// fold is a register's cell as its words are compared: lower case, no
// spaces, underscores or hyphens.
func fold(s string) string {
	return strings.NewReplacer(" ", "", "_", "", "-", "", "\u3000", "").Replace(strings.ToLower(strings.TrimSpace(s)))
}

// unknownWords are the cells a register writes for what it does not know.
var unknownWords = []string{"", "不详", "未知", "不明", "待查", "unknown", "n/a", "na", "?", "？", "—", "–"}

// paperBasisOf reads a register's basis as real registers word it, in
// Chinese or English: "" (with ok) when the register does not say.
func paperBasisOf(cell string) (Basis, bool) {
	s := fold(cell)
	if slices.Contains(unknownWords, s) {
		return "", true
	}
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(s, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has("鉴定", "考核", "考评", "apprais", "assess"):
		return Appraisal, true
	case has("全国") && has("冠军") || has("champion"):
		return NationalChampionship, true
	case has("全国", "national"):
		return NationalResult, true
	case has("赛", "成绩", "tournament", "competition", "event", "contest"):
		return Tournament, true
	}
	return "", false
}

// paperGrade reads a register's athlete grade for rank on basis: an empty
// or unknown cell is the grade of rank and basis, or GradeUnknown for a 4
// to 7 dan whose basis the register does not say. A grade given must fit
// them.
func paperGrade(cell string, rank registry.Rank, basis Basis) (AthleteGrade, *ledger.Error) {
	derived := AthleteGradeFor(rank, basis)
	if basis == "" && NeedsNotice(rank) {
		derived = GradeUnknown
	}
	s := fold(cell)
	if slices.Contains(unknownWords, s) {
		return derived, nil
	}
	var g AthleteGrade
	switch {
	case s == "无" || s == "没有" || s == "none" || s == "no" || s == "nograde" || s == "0":
		g = NoGrade
	case strings.Contains(s, "二级") || strings.Contains(s, "second") || strings.Contains(s, "2nd") || s == "2" || s == "二":
		g = SecondClass
	case strings.Contains(s, "一级") || strings.Contains(s, "first") || strings.Contains(s, "1st") || s == "1" || s == "一":
		g = FirstClass
	default:
		g = "?"
	}
	allowed := []AthleteGrade{derived}
	if derived == GradeUnknown { // the basis unknown: the rank's grade, or none (an appraisal)
		allowed = []AthleteGrade{AthleteGradeFor(rank, Tournament), NoGrade}
	}
	if !slices.Contains(allowed, g) {
		basisWords := ledger.Words("basis", "不详", "unknown")
		if basis != "" {
			basisWords = ledger.Words("basis", BasisChinese(basis), string(basis))
		}
		zh, en := []string{}, []string{}
		for _, a := range allowed {
			zh, en = append(zh, GradeChinese(a)), append(en, GradeEnglish(a))
		}
		return "", ReasonPaperGrade.FieldWith("grade", ledger.Value("value", cell), ledger.Words("rank", rank.Chinese(), rank.String()),
			basisWords, ledger.Words("allowed", strings.Join(zh, "或"), strings.Join(en, " or ")))
	}
	return g, nil
}

// rankSuffix keeps "3段" → "3d" and "5级" → "5k" readable by ParseRank.
func rankSuffix(s string) string {
	switch {
	case strings.HasSuffix(s, "段"):
		return "d"
	case strings.HasSuffix(s, "级"):
		return "k"
	}
	return ""
}

// paperDate reads an issue date as agencies write it.
func paperDate(s string, now time.Time) (time.Time, bool) {
	s = strings.NewReplacer("年", "-", "月", "-", "日", "", "/", "-", ".", "-").Replace(strings.TrimSpace(s))
	t, err := time.Parse("2006-1-2", s)
	if err != nil || t.Year() < 1980 || t.After(now.In(ledger.ChinaTime)) {
		return time.Time{}, false
	}
	return t, true
}

// maxPaperUnzipped bounds the bytes an XLSX upload may unpack to.
const maxPaperUnzipped = 64 << 20

// readSheet reads a CSV (UTF-8 with or without BOM, else GBK) or an XLSX
// file into rows of cells, and says which encoding it read. It bounds the
// work before it parses: an XLSX's parts and its sheet's rows and cells
// are checked first (checkXLSX), and both kinds are read row by row,
// refused at the first row or cell over MaxPaperRows or MaxPaperCells.
func readSheet(data []byte) ([][]string, string, error) {
	if bytes.HasPrefix(data, []byte("PK")) {
		// a 1 MB upload can unzip to gigabytes, and a small sheet name a
		// million rows: bound both before excelize reads anything (its own
		// default is 16 GB unpacked), with refusals that have their code
		if err := checkXLSX(data); err != nil {
			return nil, "", err
		}
		f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{UnzipSizeLimit: maxPaperUnzipped, UnzipXMLSizeLimit: maxPaperSheetPart})
		if err != nil {
			return nil, "", ReasonPaperSpreadsheet.OnField("file")
		}
		defer f.Close()
		it, err := f.Rows(f.GetSheetName(0))
		if err != nil {
			return nil, "", ReasonPaperSpreadsheet.OnField("file")
		}
		defer it.Close()
		var c sheetCounter
		var rows [][]string
		for it.Next() {
			row, err := it.Columns()
			if err != nil {
				return nil, "", ReasonPaperSpreadsheet.OnField("file")
			}
			if err := c.row(len(row)); err != nil {
				return nil, "", err
			}
			rows = append(rows, row)
		}
		if it.Error() != nil {
			return nil, "", ReasonPaperSpreadsheet.OnField("file")
		}
		for len(rows) > 0 && len(rows[len(rows)-1]) == 0 { // as excelize's GetRows
			rows = rows[:len(rows)-1]
		}
		return rows, "XLSX", nil
	}
	text, enc := bytes.TrimPrefix(data, []byte("\ufeff")), "UTF-8"
	if !utf8.Valid(text) {
		// GB18030 reads any bytes (what it cannot map becomes U+FFFD)
		decoded, err := simplifiedchinese.GB18030.NewDecoder().Bytes(data)
		if err != nil {
			return nil, "", ReasonPaperUnreadable.OnField("file")
		}
		text, enc = decoded, "GBK"
	}
	if err := countCSV(text); err != nil {
		return nil, "", err
	}
	r := csv.NewReader(bytes.NewReader(text))
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	var c sheetCounter
	var rows [][]string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			// with lazy quotes and any number of fields a CSV reader
			// refuses nothing of a byte slice; should it, say so plainly
			return nil, "", ReasonPaperUnreadable.OnField("file")
		}
		if err := c.row(len(rec)); err != nil {
			return nil, "", err
		}
		rows = append(rows, rec)
	}
	return rows, enc, nil
}

// headerColumns finds the needed columns in the first row.
func headerColumns(rows [][]string) (map[string]int, error) {
	if len(rows) == 0 {
		return nil, ReasonPaperColumns.OnField("file", "column", "证书编号 number")
	}
	cols := map[string]int{}
	for j, h := range rows[0] {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		for name, names := range paperColumns {
			for _, n := range names {
				if _, seen := cols[name]; !seen && (h == n || strings.HasPrefix(h, n+" ")) {
					cols[name] = j
				}
			}
		}
	}
	for _, need := range []string{"number", "name", "identity", "rank", "date"} {
		if _, ok := cols[need]; !ok {
			return nil, ReasonPaperColumns.OnField("file", "column", paperColumns[need][0]+" "+paperColumns[need][len(paperColumns[need])-1])
		}
	}
	return cols, nil
}

// PaperSubmission is an agency's file of paper certificates waiting for
// the association's confirmation.
type PaperSubmission struct {
	ID           int64
	AgencyPrefix string
	SubmittedAt  time.Time
	SubmittedBy  string
	Rows         int
	Status       string // pending, confirmed or refused
	Note         string
	Result       PaperResult // the check as submitted
}

// The refusals of paper submissions.
var (
	ReasonPaperDecided = ledger.NewReason(ledger.Precondition, "PAPER_DECIDED",
		"纸质证书补录申请 {submission} 已经处理（{status}）。", "paper submission {submission} was already decided ({status}).")
	ReasonNoSuchPaperSubmission = ledger.NewReason(ledger.NotFound, "NO_SUCH_PAPER_SUBMISSION",
		"没有编号为 {submission} 的纸质证书补录申请。", "there is no paper submission {submission}.")
)

// SubmitPaper is an agency's way to record its paper certificates: the file
// is checked as for staff (only holders of its own province), and waits,
// with its skipped lines, for staff to confirm it (DecidePaper). Nothing is
// recorded before then.
func (s *Service) SubmitPaper(ctx context.Context, actor ledger.Actor, key string, in PaperInput) (PaperSubmission, error) {
	if err := access.RequireSignedIn(actor, access.SubmitPaper); err != nil {
		return PaperSubmission{}, err
	}
	prov, ok := registry.ProvinceByPrefix(actor.Agency)
	if !ok {
		return PaperSubmission{}, s.requireStaff(ctx, actor, access.RecordRanks) // staff record directly (ImportPaper)
	}
	req := struct {
		Data []byte
		Skip []int
	}{in.Data, in.Skip}
	return ledger.Mutate(ctx, s.store, actor, key, "SubmitPaper", req, func(tx *ledger.Tx, now time.Time) (PaperSubmission, error) {
		if err := s.policy.Require(ctx, tx, actor, access.SubmitPaper, prov.Prefix); err != nil {
			return PaperSubmission{}, err
		}
		res, err := s.importPaperTx(ctx, tx, now, actor, PaperInput{Data: in.Data, DryRun: true, Skip: in.Skip}, prov.Code)
		if err != nil {
			return PaperSubmission{}, err
		}
		if res.Bad > 0 {
			return PaperSubmission{}, ReasonPaperNotValid.New("count", strconv.Itoa(res.Bad))
		}
		sub := PaperSubmission{AgencyPrefix: prov.Prefix, SubmittedAt: now, SubmittedBy: actor.String(), Rows: len(res.Rows), Status: "pending", Result: res}
		skip := in.Skip
		if skip == nil {
			skip = []int{}
		}
		if err := tx.QueryRow(ctx, `INSERT INTO paper_submissions (agency_prefix, submitted_at, submitted_by, data, skip_lines, row_count, status)
			VALUES ($1, $2, $3, $4, $5, $6, 'pending') RETURNING id`, sub.AgencyPrefix, now, sub.SubmittedBy, in.Data, skip, sub.Rows).Scan(&sub.ID); err != nil {
			return PaperSubmission{}, ledger.PgErr(err, "submit paper certificates")
		}
		return sub, ledger.Append(ctx, tx, now, actor, "paper_submission", strconv.FormatInt(sub.ID, 10),
			PaperSubmittedPayload{Rows: sub.Rows, Skipped: len(in.Skip)})
	})
}

// DecidePaper confirms (records every certificate of the file, checked
// again now) or refuses an agency's paper submission. Staff only.
func (s *Service) DecidePaper(ctx context.Context, actor ledger.Actor, key string, id int64, confirm bool, note string) (PaperSubmission, error) {
	if err := s.requireStaff(ctx, actor, access.RecordRanks); err != nil {
		return PaperSubmission{}, err
	}
	note, err := ledger.OptionalText("note", note, 500)
	if err != nil {
		return PaperSubmission{}, err
	}
	req := []any{id, confirm, note}
	return ledger.Mutate(ctx, s.store, actor, key, "DecidePaper", req, func(tx *ledger.Tx, now time.Time) (PaperSubmission, error) {
		var sub PaperSubmission
		var data []byte
		var skip []int32
		err := tx.QueryRow(ctx, `SELECT agency_prefix, submitted_at, submitted_by, data, skip_lines, row_count, status FROM paper_submissions
			WHERE id = $1 FOR UPDATE`, id).Scan(&sub.AgencyPrefix, &sub.SubmittedAt, &sub.SubmittedBy, &data, &skip, &sub.Rows, &sub.Status)
		if err != nil {
			return PaperSubmission{}, ledger.RowErr(err, fmt.Sprintf("paper submission %d", id), ReasonNoSuchPaperSubmission.New("submission", strconv.FormatInt(id, 10)))
		}
		sub.ID = id
		if sub.Status != "pending" {
			return PaperSubmission{}, ReasonPaperDecided.New("submission", strconv.FormatInt(id, 10), "status", sub.Status)
		}
		status := "refused"
		if confirm {
			lines := make([]int, len(skip))
			for i, l := range skip {
				lines[i] = int(l)
			}
			prov, _ := registry.ProvinceByPrefix(sub.AgencyPrefix)
			if sub.Result, err = s.importPaperTx(ctx, tx, now, actor, PaperInput{Data: data, Skip: lines}, prov.Code); err != nil {
				return PaperSubmission{}, err
			}
			status = "confirmed"
		}
		if _, err := tx.Exec(ctx, `UPDATE paper_submissions SET status = $2, decided_at = $3, decided_by = $4, note = $5 WHERE id = $1`,
			id, status, now, actor.String(), note); err != nil {
			return PaperSubmission{}, ledger.PgErr(err, "decide paper submission")
		}
		sub.Status, sub.Note = status, note
		var p ledger.Payload = PaperRefusedPayload{Imported: sub.Result.Imported, Note: note}
		if confirm {
			p = PaperConfirmedPayload{Imported: sub.Result.Imported, Note: note}
		}
		return sub, ledger.Append(ctx, tx, now, actor, "paper_submission", strconv.FormatInt(id, 10), p)
	})
}
