package certs_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
)

// TestPaperBasisAndGrade: a register's optional columns of basis and
// athlete grade, as registers word them in Chinese or English, are kept
// with the certificate; a 4–7 dan whose register does not say stays of
// unknown grade; a grade that does not fit the rank and basis, or a basis
// no register means, names the row.
func TestPaperBasisAndGrade(t *testing.T) {
	ctx := context.Background()
	e := newEnvAt(t, certs.Config{}, time.Date(2026, 6, 1, 2, 0, 0, 0, time.UTC))
	tests := []struct {
		rank, basis, grade string
		wantBasis          certs.Basis
		wantGrade          certs.AthleteGrade
		problem            string
	}{
		{"4段", "", "", "", certs.GradeUnknown, ""},
		{"4段", "2014年北京市业余围棋段位赛", "", certs.Tournament, certs.SecondClass, ""},
		{"5段", "Tournament", "", certs.Tournament, certs.SecondClass, ""},
		{"4段", "鉴定", "", certs.Appraisal, certs.NoGrade, ""},
		{"4段", "Appraisal", "二级运动员", "", "", "PAPER_GRADE"},
		{"5段", "不详", "国家二级运动员", "", certs.SecondClass, ""},
		{"5段", "不详", "无", "", certs.NoGrade, ""},
		{"4段", "", "一级", "", "", "PAPER_GRADE"},
		{"3段", "升段赛", "", certs.Tournament, certs.NoGrade, ""},
		{"3段", "", "", "", certs.NoGrade, ""},
		{"2段", "运气", "", "", "", "PAPER_BASIS"},
		{"4段", "unknown", "Unknown", "", certs.GradeUnknown, ""},
		{"6段", "全国比赛成绩", "", certs.NationalResult, certs.FirstClass, ""},
		{"7段", "National Champion", "first class", certs.NationalChampionship, certs.FirstClass, ""},
		{"5段", "考核", "second class", "", "", "PAPER_GRADE"},
	}
	var file strings.Builder
	file.WriteString("证书编号,姓名,证件号码,段位,发证日期,授予依据,运动员等级\n")
	numbers := make([]string, len(tests))
	for i, tt := range tests {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("纸证%02d", i), "", "1970-01-01", i)
		prefix := "110"
		if strings.HasPrefix(tt.rank, "6") || strings.HasPrefix(tt.rank, "7") {
			prefix = "000"
		}
		numbers[i] = fmt.Sprintf("%s15%04d", prefix, i+1)
		fmt.Fprintf(&file, "%s,%s,%s,%s,2015-04-01,%s,%s\n", numbers[i], p.Name, p.IDNumber, tt.rank, tt.basis, tt.grade)
	}
	res, err := e.cs.ImportPaper(ctx, staff, "", certs.PaperInput{Data: []byte(file.String()), DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	var skip []int
	for i, tt := range tests {
		row := res.Rows[i]
		var codes []string
		for _, p := range row.Problems {
			codes = append(codes, p.Reason.Code())
		}
		if got := strings.Join(codes, ","); got != tt.problem {
			t.Errorf("%s %q %q: problems %q, want %q", tt.rank, tt.basis, tt.grade, got, tt.problem)
			continue
		}
		if tt.problem != "" {
			skip = append(skip, row.Line)
			continue
		}
		if row.Basis != tt.wantBasis || row.Grade != tt.wantGrade {
			t.Errorf("%s %q %q: read basis %q grade %q, want %q %q", tt.rank, tt.basis, tt.grade, row.Basis, row.Grade, tt.wantBasis, tt.wantGrade)
		}
	}
	if res, err = e.cs.ImportPaper(ctx, staff, "", certs.PaperInput{Data: []byte(file.String()), Skip: skip}); err != nil {
		t.Fatalf("import: %+v, %v", res, err)
	}
	for i, tt := range tests {
		v, err := e.cs.Verify(ctx, numbers[i])
		switch {
		case err != nil:
			t.Fatal(err)
		case tt.problem != "" && v.Found:
			t.Errorf("%s: a skipped row verifies", numbers[i])
		case tt.problem == "" && (!v.Found || v.Certificate.Basis != certs.PaperBasis || v.Certificate.PaperBasis != tt.wantBasis ||
			v.Certificate.AthleteGrade != tt.wantGrade):
			t.Errorf("%s verifies as %+v, want paper basis %q grade %q", numbers[i], v.Certificate, tt.wantBasis, tt.wantGrade)
		}
	}
}

// TestReissueKeepsBasisAndGrade: a reissue keeps what the original was
// granted for: an appraised 4 dan stays without a grade, a paper 4 dan of
// unknown basis stays unknown, a tournament 5 dan stays second class.
func TestReissueKeepsBasisAndGrade(t *testing.T) {
	ctx := context.Background()
	e := newEnvAt(t, certs.Config{}, time.Date(2026, 6, 1, 2, 0, 0, 0, time.UTC))
	e.stock(t, "110", 20, 20)
	viaNotice := func(a certs.Application) string {
		t.Helper()
		a, err := e.cs.Approve(ctx, beijing, "", a.ID)
		if err != nil {
			t.Fatal(err)
		}
		e.endNotice(t, a.NoticeID)
		if _, err := e.cs.Sweep(ctx); err != nil {
			t.Fatal(err)
		}
		if a, err = e.cs.GetApplication(ctx, beijing, a.ID); err != nil || a.CertificateNumber == "" {
			t.Fatalf("after the notice: %+v, %v", a, err)
		}
		return a.CertificateNumber
	}
	ap := fixture.Appraiser(t, e.cs, "110", "聂老师")
	appraised := fixture.Player(t, e.reg, "110", "鉴定四段", "3d", "1970-01-01", 1)
	s := fixture.Appraisal(t, e.cs, "110", ap.ID, appraised.ID, "4d", e.clock.Now())
	a, err := e.cs.Apply(ctx, beijing, "", certs.ApplicationInput{PlayerID: appraised.ID, TargetRank: "4d", Basis: "appraisal", AppraisalSessionID: s.ID})
	if err != nil {
		t.Fatal(err)
	}
	appraisedNumber := viaNotice(a)
	fiveDan := viaNotice(e.apply(t, beijing, fixture.Player(t, e.reg, "110", "赛五段", "3d", "1970-01-01", 2), "5d"))
	paper := func(name, basis string, seq int) string {
		p := fixture.Player(t, e.reg, "110", name, "", "1970-01-01", seq)
		number := fmt.Sprintf("11015%04d", seq)
		file := "证书编号,姓名,证件号码,段位,发证日期,basis\n" + number + "," + p.Name + "," + p.IDNumber + ",4段,2015-04-01," + basis + "\n"
		if _, err := e.cs.ImportPaper(ctx, staff, "", certs.PaperInput{Data: []byte(file)}); err != nil {
			t.Fatal(err)
		}
		return number
	}
	for _, tt := range []struct {
		name       string
		number     string
		basis      certs.Basis
		paperBasis certs.Basis
		grade      certs.AthleteGrade
	}{
		{"appraisal 4 dan", appraisedNumber, certs.Appraisal, "", certs.NoGrade},
		{"tournament 5 dan", fiveDan, certs.Tournament, "", certs.SecondClass},
		{"paper 4 dan of unknown basis", paper("纸四段", "", 3), certs.PaperBasis, "", certs.GradeUnknown},
		{"paper 4 dan by tournament", paper("纸赛四段", "比赛", 4), certs.PaperBasis, certs.Tournament, certs.SecondClass},
		{"paper 4 dan by appraisal", paper("纸鉴四段", "鉴定", 5), certs.PaperBasis, certs.Appraisal, certs.NoGrade},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before, err := e.cs.Verify(ctx, tt.number)
			if err != nil || before.Certificate.AthleteGrade != tt.grade {
				t.Fatalf("before the reissue: %+v, %v", before.Certificate, err)
			}
			c, err := e.cs.Reissue(ctx, beijing, "", tt.number, "遗失")
			if err != nil {
				t.Fatal(err)
			}
			v, err := e.cs.Verify(ctx, c.Number)
			if err != nil || v.Certificate.Basis != tt.basis || v.Certificate.PaperBasis != tt.paperBasis || v.Certificate.AthleteGrade != tt.grade ||
				v.Certificate.Replaces != tt.number {
				t.Fatalf("reissued %s = %+v, %v; want basis %s, paper basis %q, grade %q", tt.number, v.Certificate, err, tt.basis, tt.paperBasis, tt.grade)
			}
		})
	}
}
