package web

import (
	"context"
	"io"
	"os"
	"testing"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/web/draw"
	"github.com/dankyu/dankyu/web/kit"
)

// BenchmarkCertificatePDF makes one certificate's PDF (font subset, QR
// code) against rendering its printable HTML page, the baseline, in the
// same run: compare the ratio, not the times.
func BenchmarkCertificatePDF(b *testing.B) {
	font, err := os.ReadFile(DefaultCertificateFont)
	if err != nil {
		b.Skipf("certificate font: %v", err)
	}
	p := kit.Page{Lang: Chinese, T: Messages(Chinese)}
	s := certSheet{Cert: certs.Certificate{Number: "110260001", PlayerName: "王小明", Rank: 4, IssueDate: time.Now(), AthleteGrade: certs.SecondClass,
		Status: certs.CertValid, Kind: certs.DanSeries}, Applicant: "北京市棋院", Link: "https://dankyu.example/c/110260001/AAAAAAAAAAAAAAAAAAAA",
		QRText: "https://dankyu.example/c/110260001/AAAAAAAAAAAAAAAAAAAA#DKC1.AQkxMTAyNjAwMDEJ546L5bCP5piOCAp0b3VybmFtZW50zp8B5wcAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}
	b.Run("html-baseline", func(b *testing.B) {
		for b.Loop() {
			if err := certificateSheet(p, s).Render(context.Background(), io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("pdf", func(b *testing.B) {
		for b.Loop() {
			if err := draw.CertificatesPDF(io.Discard, font, string(p.Lang), "t", "", []draw.CertificateSheet{printedSheet(p, s)}); err != nil {
				b.Fatal(err)
			}
		}
	})
	hundred := make([]draw.CertificateSheet, 100)
	for i := range hundred {
		hundred[i] = printedSheet(p, s)
	}
	b.Run("pdf-100-pages", func(b *testing.B) { // a year's batch: the font is read once
		for b.Loop() {
			if err := draw.CertificatesPDF(io.Discard, font, string(p.Lang), "t", "", hundred); err != nil {
				b.Fatal(err)
			}
		}
	})
}
