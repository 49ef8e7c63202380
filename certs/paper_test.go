package certs_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/simplifiedchinese"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
)

// fullWidth writes ASCII digits as a spreadsheet typed in Chinese may.
func fullWidth(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r - '0' + '０'
		}
		return r
	}, s)
}

// TestPaperCertificates imports two files of paper certificates as agencies
// keep them (a GBK CSV and a UTF-8 workbook, with full-width digits and bad
// rows), first as a dry run naming every bad row by its line, then for real;
// the numbers verify, and a later issue in the same series takes the next
// number no paper record holds.
func TestPaperCertificates(t *testing.T) {
	ctx := context.Background()
	e := newEnvAt(t, certs.Config{}, time.Date(2026, 6, 1, 2, 0, 0, 0, time.UTC))
	const n = 1000
	var csvText strings.Builder
	csvText.WriteString("证书编号,姓名,证件号码,段位,发证日期,发证单位\r\n")
	xlsx := excelize.NewFile()
	xlsx.SetSheetRow("Sheet1", "A1", &[]string{"证书编号", "姓名", "身份证号码", "段位", "发证日期", "发证单位"})
	bad := map[int]string{}     // line of the whole list → the reason expected
	badXLSX := map[int]string{} // workbook line → the reason expected
	xlsxBad := func(bad map[int]string, line, sheetLine int) {
		if r, ok := bad[line]; ok {
			badXLSX[sheetLine] = r
			delete(bad, line)
		}
	}
	for i := range n {
		birth := fmt.Sprintf("19%02d-%02d-%02d", 60+i%40, 1+i%12, 1+i%28)
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("纸证%04d", i), "", birth, i)
		year := 2007 + i%20 // twenty years of paper, the last this year
		number := fmt.Sprintf("110%02d%04d", year%100, 1+i/20)
		row := []string{number, p.Name, p.IDNumber, "1段", fmt.Sprintf("%d年3月%d日", year, 1+i%28), "北京市围棋协会"}
		line := i + 2
		switch i % 100 {
		case 7:
			row[4], bad[line] = "2006/13/40", "PAPER_DATE"
		case 13:
			row[0], bad[line] = fmt.Sprintf("110%02d%04d", (year+1)%100, 9000+i), "PAPER_YEAR"
		case 29:
			row[2], bad[line] = fixture.ResidentID("110", "1950-01-01", 999), "PAPER_NO_HOLDER"
		case 31:
			row[3], bad[line] = "5k", "PAPER_KIND"
		}
		if i%3 == 0 {
			row[0], row[2] = fullWidth(row[0]), fullWidth(row[2])
		}
		if i < n/2 { // half the rows in a GBK CSV, half in a workbook, as two agencies keep them
			csvText.WriteString(strings.Join(row, ",") + "\r\n")
		} else {
			xlsx.SetSheetRow("Sheet1", fmt.Sprintf("A%d", line-n/2), &row)
			xlsxBad(bad, line, line-n/2)
		}
	}
	gbk, err := simplifiedchinese.GBK.NewEncoder().String(csvText.String())
	if err != nil {
		t.Fatal(err)
	}
	dry, err := e.cs.ImportPaper(ctx, staff, "", certs.PaperInput{Data: []byte(gbk), DryRun: true})
	if err != nil || dry.Encoding != "GBK" || len(dry.Rows) != n/2 || dry.Bad != len(bad) {
		for _, r := range dry.Rows {
			if _, b := bad[r.Line]; !b && len(r.Problems) > 0 {
				t.Logf("line %d: %v", r.Line, r.Problems)
			}
		}
		t.Fatalf("dry run: %s, %d rows, %d bad (want %d), %v", dry.Encoding, len(dry.Rows), dry.Bad, len(bad), err)
	}
	var skip []int
	for _, r := range dry.Rows {
		want, isBad := bad[r.Line]
		switch {
		case isBad && (len(r.Problems) == 0 || r.Problems[0].Reason.Code() != want):
			t.Errorf("line %d: problems %v, want %s", r.Line, r.Problems, want)
		case !isBad && len(r.Problems) > 0:
			t.Errorf("line %d: unexpected problems %v", r.Line, r.Problems)
		}
		if isBad {
			skip = append(skip, r.Line)
		}
	}
	if _, err := e.cs.ImportPaper(ctx, fixture.Agency("110"), "", certs.PaperInput{Data: []byte(gbk)}); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("an agency importing: %v", err)
	}
	if _, err := e.cs.ImportPaper(ctx, staff, "", certs.PaperInput{Data: []byte(gbk)}); ledger.KindOf(err) != ledger.Precondition {
		t.Fatalf("import with bad rows not skipped: %v, want failed precondition", err)
	}
	got, err := e.cs.ImportPaper(ctx, staff, "paper-1", certs.PaperInput{Data: []byte(gbk), Skip: skip})
	if err != nil || got.Imported != n/2-len(bad) {
		t.Fatalf("import: %d imported, %v; want %d", got.Imported, err, n/2-len(bad))
	}
	if again, err := e.cs.ImportPaper(ctx, staff, "", certs.PaperInput{Data: []byte(gbk), DryRun: true}); err != nil ||
		again.Rows[0].Problems[0].Reason.Code() != "PAPER_NUMBER_TAKEN" {
		t.Fatalf("the same file again: %+v, %v; want its numbers on record", again.Rows[0], err)
	}
	// the workbook: UTF-8, full-width digits, its own bad rows
	var wb bytes.Buffer
	if err := xlsx.Write(&wb); err != nil {
		t.Fatal(err)
	}
	wdry, err := e.cs.ImportPaper(ctx, staff, "", certs.PaperInput{Data: wb.Bytes(), DryRun: true})
	if err != nil || wdry.Encoding != "XLSX" || len(wdry.Rows) != n/2 || wdry.Bad != len(badXLSX) {
		t.Fatalf("workbook dry run: %s, %d rows, %d bad (want %d), %v", wdry.Encoding, len(wdry.Rows), wdry.Bad, len(badXLSX), err)
	}
	var wskip []int
	for _, r := range wdry.Rows {
		want, isBad := badXLSX[r.Line]
		if isBad != (len(r.Problems) > 0) || isBad && r.Problems[0].Reason.Code() != want {
			t.Errorf("workbook line %d: %v, want %q", r.Line, r.Problems, want)
		}
		if isBad {
			wskip = append(wskip, r.Line)
		}
	}
	if got, err := e.cs.ImportPaper(ctx, staff, "paper-2", certs.PaperInput{Data: wb.Bytes(), Skip: wskip}); err != nil || got.Imported != n/2-len(badXLSX) {
		t.Fatalf("workbook import: %d, %v", got.Imported, err)
	}
	// the numbers verify, marked as recorded from paper
	v, err := e.cs.Verify(ctx, fullWidth("110070001"))
	if err != nil || !v.Found || v.Certificate.Status != certs.CertValid || !v.Certificate.FromPaper || v.Certificate.PlayerName != "纸证0000" {
		t.Fatalf("verify a paper number: %+v, %v", v, err)
	}
	holder, _ := e.reg.GetPlayer(ctx, v.Certificate.PlayerID)
	if holder.Rank != 1 {
		t.Fatalf("holder's certified rank = %s, want 1d from paper", holder.Rank)
	}
	// 2026's paper certificates (serials 1–50 of 110-26, but the skipped ones) are skipped by the next issue
	e.stock(t, "110", 10, 0)
	fresh := fixture.Player(t, e.reg, "110", "新证", "", "1999-09-09", 1)
	a, err := e.cs.Approve(ctx, beijing, "", e.apply(t, beijing, fresh, "1d").ID)
	if err != nil {
		t.Fatal(err)
	}
	var held int
	if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM certificates WHERE from_paper AND issuing_prefix = '110' AND year = 26`).Scan(&held); err != nil {
		t.Fatal(err)
	}
	if held == 0 || a.CertificateNumber != fmt.Sprintf("11026%04d", held+1) {
		t.Fatalf("next 2026 number %s with %d paper serials held, want 11026%04d", a.CertificateNumber, held, held+1)
	}
}

// TestAgencySubmitsPaperForConfirmation: an agency's file of paper
// certificates waits for staff; nothing verifies before they confirm.
func TestAgencySubmitsPaperForConfirmation(t *testing.T) {
	ctx := context.Background()
	e := newEnvAt(t, certs.Config{}, time.Date(2026, 6, 1, 2, 0, 0, 0, time.UTC))
	a := fixture.Player(t, e.reg, "110", "甲方", "", "1980-01-01", 1)
	b := fixture.Player(t, e.reg, "110", "乙方", "", "1981-01-01", 2)
	sh := fixture.Player(t, e.reg, "310", "沪方", "", "1982-01-01", 3)
	file := "证书编号,姓名,证件号码,段位,发证日期\n" +
		"110150001," + a.Name + "," + a.IDNumber + ",2段,2015-04-01\n" +
		"110150002," + b.Name + "," + b.IDNumber + ",1段,2015-04-01\n" +
		"310150001," + sh.Name + "," + sh.IDNumber + ",1段,2015-04-01\n"
	_, err := e.cs.SubmitPaper(ctx, beijing, "", certs.PaperInput{Data: []byte(file)})
	if ledger.KindOf(err) != ledger.Precondition {
		t.Fatalf("with another province's holder not skipped: %v, want failed precondition", err)
	}
	sub, err := e.cs.SubmitPaper(ctx, beijing, "p1", certs.PaperInput{Data: []byte(file), Skip: []int{4}})
	if err != nil || sub.Status != "pending" || sub.Rows != 3 {
		t.Fatalf("submission: %+v, %v", sub, err)
	}
	if v, _ := e.cs.Verify(ctx, "110150001"); v.Found {
		t.Fatal("a paper certificate verifies before staff confirmed it")
	}
	if _, err := e.cs.DecidePaper(ctx, beijing, "", sub.ID, true, ""); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("the agency confirming its own file: %v", err)
	}
	done, err := e.cs.DecidePaper(ctx, staff, "", sub.ID, true, "核对原件无误")
	if err != nil || done.Status != "confirmed" || done.Result.Imported != 2 {
		t.Fatalf("confirm: %+v, %v", done, err)
	}
	if v, _ := e.cs.Verify(ctx, "110 15 0001"); !v.Found || !v.Certificate.FromPaper || v.Certificate.Rank != 2 {
		t.Fatalf("after confirmation: %+v", v)
	}
	if _, err := e.cs.DecidePaper(ctx, staff, "", sub.ID, false, ""); ledger.KindOf(err) != ledger.Precondition {
		t.Fatalf("deciding twice: %v", err)
	}
}

// TestOlderPrintedNumbers: a paper certificate numbered in a format older
// than today's is recorded as printed and verifies by that number.
func TestOlderPrintedNumbers(t *testing.T) {
	ctx := context.Background()
	e := newEnvAt(t, certs.Config{}, time.Date(2026, 6, 1, 2, 0, 0, 0, time.UTC))
	p := fixture.Player(t, e.reg, "110", "老证", "", "1960-01-01", 1)
	file := "证书编号,姓名,证件号码,段位,发证日期,编号格式\n" +
		"京段-1998-037," + p.Name + "," + p.IDNumber + ",3段,1998-05-01,旧\n" +
		"BJ1998-0037," + p.Name + "," + p.IDNumber + ",3段,1998-05-01,旧\n" +
		"98037," + p.Name + "," + p.IDNumber + ",2段,1996-05-01,\n"
	dry, err := e.cs.ImportPaper(ctx, staff, "", certs.PaperInput{Data: []byte(file), DryRun: true})
	if err != nil || len(dry.Rows) != 3 {
		t.Fatalf("dry run: %+v, %v", dry, err)
	}
	want := []string{"PRINTED_NUMBER", "", "DAN_NUMBER_LENGTH"} // not a printable old number; fine; today's format without the mark
	for i, r := range dry.Rows {
		got := ""
		if len(r.Problems) > 0 {
			got = r.Problems[0].Reason.Code()
		}
		if got != want[i] {
			t.Errorf("line %d: %q, want %q", r.Line, got, want[i])
		}
	}
	if res, err := e.cs.ImportPaper(ctx, staff, "", certs.PaperInput{Data: []byte(file), Skip: []int{2, 4}}); err != nil || res.Imported != 1 {
		t.Fatalf("import: %+v, %v", res, err)
	}
	v, err := e.cs.Verify(ctx, "bj1998-0037")
	if err != nil || !v.Found || v.Certificate.PrintedNumber != "BJ1998-0037" || !v.Certificate.FromPaper || v.Certificate.Rank != 3 {
		t.Fatalf("verify the printed number: %+v, %v", v, err)
	}
	if _, err := e.cs.Verify(ctx, "BJ1998-9999"); ledger.KindOf(err) != ledger.Invalid {
		t.Fatalf("an unknown older-looking number: %v, want the number refused as malformed", err)
	}
}

// TestAppraisersStayInTheirProvince: an agency does not appraise through
// another province's appraiser, nor name another province's player as its own.
func TestAppraisersStayInTheirProvince(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	shanghai := fixture.Agency("310")
	shPlayer := fixture.Player(t, e.reg, "310", "沪棋手", "", "1970-01-01", 1)
	if _, err := e.cs.RecommendAppraiser(ctx, beijing, "", certs.AppraiserInput{Name: "外省人", PlayerID: shPlayer.ID}); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("Beijing naming a Shanghai player its appraiser: %v", err)
	}
	ap, err := e.cs.RecommendAppraiser(ctx, shanghai, "", certs.AppraiserInput{Name: "沪鉴定人", PlayerID: shPlayer.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.SetAppraiserStatus(ctx, staff, "", ap.ID, certs.AppraiserApproved); err != nil {
		t.Fatal(err)
	}
	adult := fixture.Player(t, e.reg, "110", "京成人", "1d", "1980-01-01", 2)
	_, err = e.cs.RecordAppraisal(ctx, beijing, "", certs.AppraisalInput{AppraiserID: ap.ID, PlayerID: adult.ID,
		HeldOn: e.clock.Now().In(ledger.ChinaTime).Format(time.DateOnly), Verdict: "2d", Games: fixture.AppraisalGames()})
	if e, ok := ledger.AsError(err); !ok || e.Reason != certs.ReasonAppraiserOtherAgency {
		t.Fatalf("Beijing appraising through Shanghai's appraiser: %v", err)
	}
}
