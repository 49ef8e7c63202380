package web

import (
	"context"
	"io"
	"os"
	"testing"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/rules"
)

// BenchmarkCertificatePDF makes one certificate's PDF (font subset, QR
// code) against rendering its printable HTML page, the baseline, in the
// same run: compare the ratio, not the times.
func BenchmarkCertificatePDF(b *testing.B) {
	font, err := os.ReadFile(DefaultCertificateFont)
	if err != nil {
		b.Skipf("certificate font: %v", err)
	}
	p := Page{Lang: Chinese, T: Messages(Chinese)}
	s := certSheet{Cert: certs.Certificate{Number: "110260001", PlayerName: "王小明", Rank: 4, IssueDate: time.Now(), AthleteGrade: certs.SecondClass,
		Status: certs.CertValid, Kind: certs.DanSeries}, Applicant: "北京市棋院", VerifyURL: "https://dankyu.example/verify?number=110260001"}
	b.Run("html-baseline", func(b *testing.B) {
		for b.Loop() {
			if err := certificateSheet(p, s).Render(context.Background(), io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("pdf", func(b *testing.B) {
		for b.Loop() {
			if err := writeCertificatePDF(io.Discard, font, p, []certSheet{s}); err != nil {
				b.Fatal(err)
			}
		}
	})
	hundred := make([]certSheet, 100)
	for i := range hundred {
		hundred[i] = s
	}
	b.Run("pdf-100-pages", func(b *testing.B) { // a year's batch: the font is read once
		for b.Loop() {
			if err := writeCertificatePDF(io.Discard, font, p, hundred); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkBoardSVG draws the final position of a 19×19 game (replay and
// SVG) against replaying it alone, the baseline.
func BenchmarkBoardSVG(b *testing.B) {
	data, err := os.ReadFile("../rules/testdata/corpus/games/dead-stones/gnugo-dublin2.sgf")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("replay-baseline", func(b *testing.B) {
		for b.Loop() {
			if _, err := gamePosition(data, rules.Options{}, -1); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("replay-and-draw", func(b *testing.B) {
		for b.Loop() {
			pos, err := gamePosition(data, rules.Options{}, -1)
			if err != nil {
				b.Fatal(err)
			}
			_ = drawBoard(pos, "x")
		}
	})
}
