package server_test

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// trivialCerts is the fair baseline of VerifyCertificate: a grpc-go
// server that reads the certificate's row in one QueryRow and answers it.
type trivialCerts struct {
	pb.UnimplementedCertificateServiceServer
	e *replicaEnv
}

func (s trivialCerts) VerifyCertificate(ctx context.Context, req *pb.VerifyCertificateRequest) (*pb.VerifyCertificateResponse, error) {
	c := &pb.Certificate{}
	var rank int
	if err := s.e.primary.QueryRow(ctx, `SELECT number, holder_name, player_id, rank, issuing_prefix, issuing_body, issue_date::text
		FROM certificates WHERE number = $1`, req.GetNumber()).Scan(&c.Number, &c.PlayerName, &c.PlayerId, &rank, &c.IssuingPrefix,
		&c.IssuingBody, &c.IssueDate); err != nil {
		return nil, err
	}
	c.Rank = fmt.Sprint(rank)
	return &pb.VerifyCertificateResponse{Number: c.Number, Found: true, Verdict: pb.Verdict_VERDICT_VALID, Certificate: c}, nil
}

// spread is min / median / max of ratios.
type spread struct{ min, med, max float64 }

func spreadOf(xs []float64) spread {
	s := slices.Clone(xs)
	slices.Sort(s)
	return spread{s[0], s[len(s)/2], s[len(s)-1]}
}

func (s spread) String() string { return fmt.Sprintf("%.2f / %.2f / %.2f×", s.min, s.med, s.max) }

// interleaved runs each op n times per round, rounds times, the ops in
// turn within a round (their order rotating), and returns each op's wall
// time per call in every round.
func interleaved(rounds, n int, ops ...func()) [][]time.Duration {
	out := make([][]time.Duration, len(ops))
	for r := range rounds {
		for k := range ops {
			i := (k + r) % len(ops)
			start := time.Now()
			for range n {
				ops[i]()
			}
			out[i] = append(out[i], time.Since(start)/time.Duration(n))
		}
	}
	return out
}

func ratios(x, base []time.Duration) []float64 {
	out := make([]float64, len(x))
	for i := range x {
		out[i] = float64(x[i]) / float64(base[i])
	}
	return out
}

// BenchmarkVerifyRoundTrip measures the public verification against its
// fair baselines in one run, interleaved (5 rounds of 300 calls each, on
// the shared machine): the page over loopback HTTP against a trivial
// net/http handler doing one pgx QueryRow of the certificate and rendering
// the same bytes through html/template (goal ≤ 1.5×), and VerifyCertificate over
// loopback gRPC against a trivial grpc-go server doing the same one-row
// read (goal ≤ 1.5×); and, in process, the data path of one statement
// (VerifyWithReceipts) against the two-step path it replaced (Verify,
// then Receipts) and against the bare QueryRow. Run with -benchtime 1x.
func BenchmarkVerifyRoundTrip(b *testing.B) {
	e := newReplicaEnvWith(b, time.Minute, false)
	ctx := context.Background()
	var number string
	for range 40 {
		number = e.issue(b)
	}
	var size int64
	if err := e.primary.QueryRow(ctx, `SELECT count(*) FROM events`).Scan(&size); err != nil {
		b.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	fetch := func(base, path string) int64 {
		resp, err := client.Get(base + path)
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("GET %s: %d %v", path, resp.StatusCode, err)
		}
		return n
	}
	pagePath := "/verify?lang=en&number=" + url.QueryEscape(number)
	resp, err := client.Get(e.portal.URL + pagePath)
	if err != nil {
		b.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	// the trivial handler renders the page's own bytes as a template with
	// the values it read (number and holder) put back in, as the issue's
	// baseline is "rendering a page of the same size"
	var holder string
	if err := e.primary.QueryRow(ctx, `SELECT holder_name FROM certificates WHERE number = $1`, number).Scan(&holder); err != nil {
		b.Fatal(err)
	}
	pageTmpl := baselinePage(b, page, number, holder)
	trivial := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var v struct{ Number, Name string }
		var rank int
		var status string
		if err := e.primary.QueryRow(r.Context(), `SELECT number, holder_name, rank, status FROM certificates WHERE number = $1`,
			r.URL.Query().Get("number")).Scan(&v.Number, &v.Name, &rank, &status); err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if err := pageTmpl.Execute(w, v); err != nil {
			http.Error(w, err.Error(), 500)
		}
	}))
	b.Cleanup(trivial.Close)

	gs := grpc.NewServer()
	pb.RegisterCertificateServiceServer(gs, trivialCerts{e: e})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go gs.Serve(lis)
	b.Cleanup(gs.Stop)
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cc.Close() })
	bare := pb.NewCertificateServiceClient(cc)
	rpc := func(c pb.CertificateServiceClient) func() {
		return func() {
			v, err := c.VerifyCertificate(ctx, &pb.VerifyCertificateRequest{Number: number})
			if err != nil || !v.GetFound() {
				b.Fatalf("VerifyCertificate: %v %v", v, err)
			}
		}
	}
	if v, err := e.certs.VerifyCertificate(ctx, &pb.VerifyCertificateRequest{Number: number}); err != nil || v.GetReceipt() == nil {
		b.Fatalf("VerifyCertificate answers no receipt: %v %v", v, err)
	}
	oneStatement := func() {
		if _, rcs, err := e.pr.VerifyWithReceipts(ctx, number); err != nil || len(rcs) == 0 || rcs[0] == nil {
			b.Fatalf("VerifyWithReceipts: %v %v", rcs, err)
		}
	}
	twoStep := func() {
		v, err := e.pr.Verify(ctx, number)
		if err != nil {
			b.Fatal(err)
		}
		if rcs, err := e.pr.Receipts(ctx, v.Events); err != nil || len(rcs) == 0 || rcs[0] == nil {
			b.Fatalf("Receipts: %v %v", rcs, err)
		}
	}
	queryRow := func() {
		var name string
		if err := e.primary.QueryRow(ctx, `SELECT holder_name FROM certificates WHERE number = $1`, number).Scan(&name); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		t := interleaved(5, 300,
			func() { fetch(e.portal.URL, pagePath) },
			func() { fetch(trivial.URL, pagePath) },
			rpc(e.certs), rpc(bare), oneStatement, twoStep, queryRow)
		pageR, rpcR := spreadOf(ratios(t[0], t[1])), spreadOf(ratios(t[2], t[3]))
		b.Logf("tree of %d events, page of %d bytes; per call (median) page %v, trivial handler %v, RPC %v, trivial RPC %v",
			size, len(page), spreadOfD(t[0]), spreadOfD(t[1]), spreadOfD(t[2]), spreadOfD(t[3]))
		b.Logf("GET /verify vs trivial handler (one QueryRow, the same bytes rendered by html/template): %s (goal ≤ 1.5×)", pageR)
		b.Logf("gRPC VerifyCertificate vs trivial grpc-go server (same one-row read): %s (goal ≤ 1.5×)", rpcR)
		b.Logf("data path in process: one statement %v, two-step (Verify, Receipts) %v, bare QueryRow %v; one/QueryRow %s, two-step/QueryRow %s",
			spreadOfD(t[4]), spreadOfD(t[5]), spreadOfD(t[6]), spreadOf(ratios(t[4], t[6])), spreadOf(ratios(t[5], t[6])))
		b.ReportMetric(pageR.med, "page-ratio")
		b.ReportMetric(rpcR.med, "rpc-ratio")
	}
}

// baselinePage is the verification page's bytes as an html/template in
// which the certificate's number and its holder's name are fields again;
// executed with them it gives the same bytes back (checked here).
func baselinePage(b *testing.B, page []byte, number, holder string) *template.Template {
	b.Helper()
	text := strings.ReplaceAll(string(page), "{{", "{{`{{`}}")
	text = strings.ReplaceAll(text, number, "{{.Number}}")
	if holder != "" {
		text = strings.ReplaceAll(text, holder, "{{.Name}}")
	}
	t, err := template.New("page").Parse(text)
	if err != nil {
		b.Fatalf("the page as a template: %v", err)
	}
	var out bytes.Buffer
	if err := t.Execute(&out, struct{ Number, Name string }{number, holder}); err != nil {
		b.Fatal(err)
	}
	if d := out.Len() - len(page); d < -64 || d > 64 || !strings.Contains(text, "{{.Number}}") {
		b.Fatalf("the baseline page is %d bytes against the page's %d (or has no number in it)", out.Len(), len(page))
	}
	return t
}

// spreadOfD is the median of durations.
func spreadOfD(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2].Round(time.Microsecond)
}
