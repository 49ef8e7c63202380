package main_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/dankyu/dankyu/internal/pgcluster"
	"github.com/dankyu/dankyu/internal/server"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

var metricsRe = regexp.MustCompile(`metrics serving"? url=(\S+)`)

// scrape reads the metrics endpoint and returns each sample's value by its
// series (name{labels} as the text format writes it).
func scrape(t *testing.T, url string) map[string]float64 {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	out := map[string]float64{}
	for _, line := range strings.Split(string(body), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err == nil {
			out[line[:i]] = v
		}
	}
	return out
}

// TestReplicaAndMetrics runs the embedded default with one streaming
// standby (--replicas 1) and the metrics endpoint: once the standby is in
// rotation the public's verifications are served by it, and the scrape
// shows requests per route and per RPC, pools per database, the replica's
// lag and rotation, and rate-limit refusals.
func TestReplicaAndMetrics(t *testing.T) {
	if _, err := pgcluster.FindBinaries(); err != nil {
		t.Fatal(err)
	}
	bin, _ := build(t)
	dataDir, err := os.MkdirTemp("", "dkd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, d := range []string{filepath.Join(dataDir, "replica1"), dataDir} {
			_ = mustCluster(t, d).Stop(context.Background(), true, true)
		}
		os.RemoveAll(dataDir)
	})
	srv := startWith(t, bin, dataDir, "--replicas", "1", "--replica-check-interval", "100ms", "--rate-verify", "3/1h")
	m := metricsRe.FindStringSubmatch(srv.Log.String())
	if m == nil {
		t.Fatalf("no metrics address in the log:\n%s", srv.Log)
	}
	url := m[1]
	conn, err := grpc.NewClient(srv.GRPC, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	health := healthpb.NewHealthClient(conn)
	deadline := time.Now().Add(30 * time.Second)
	for {
		h, err := health.Check(context.Background(), &healthpb.HealthCheckRequest{Service: server.ReplicaHealthService})
		if err == nil && h.GetStatus() == healthpb.HealthCheckResponse_SERVING {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica never in rotation: %v %v\n%s", h, err, srv.Log)
		}
		time.Sleep(100 * time.Millisecond)
	}
	before := scrape(t, url)
	for range 2 {
		resp, err := http.Get("http://" + srv.HTTP + "/verify?number=110260001")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	v, err := pb.NewCertificateServiceClient(conn).VerifyCertificate(context.Background(), &pb.VerifyCertificateRequest{Number: "110260001"})
	if err != nil || v.GetFound() {
		t.Fatalf("VerifyCertificate of a number nobody holds: %v %v", v, err)
	}
	// the fourth verification is over the 3/1h limit
	if resp, err := http.Get("http://" + srv.HTTP + "/verify?number=110260001"); err != nil || resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("fourth verification: %v %v", resp, err)
	}
	after := scrape(t, url)
	for _, tt := range []struct {
		series string
		moved  float64
	}{
		{`dankyu_http_requests_total{code="200",route="GET /verify"}`, 2},
		{`dankyu_http_requests_total{code="429",route="GET /verify"}`, 1},
		{`dankyu_http_request_duration_seconds_count{route="GET /verify"}`, 3},
		{`dankyu_grpc_requests_total{code="OK",method="/dankyu.v1.CertificateService/VerifyCertificate"}`, 1},
		{`dankyu_grpc_request_duration_seconds_count{method="/dankyu.v1.CertificateService/VerifyCertificate"}`, 1},
		{`dankyu_public_reads_total{database="replica1"}`, 3},
		{`dankyu_rate_limited_total{limit="verify"}`, 1},
	} {
		if got := after[tt.series] - before[tt.series]; got != tt.moved {
			t.Errorf("%s moved by %v, want %v", tt.series, got, tt.moved)
		}
	}
	for _, series := range []string{`dankyu_replica_in_rotation{replica="replica1"}`, `dankyu_db_pool_connections{database="replica1",state="max"}`,
		`dankyu_db_pool_connections{database="primary",state="max"}`, `dankyu_sweeper_runs_total{outcome="ok"}`} {
		if after[series] < 1 {
			t.Errorf("%s = %v, want at least 1", series, after[series])
		}
	}
	if _, ok := after[`dankyu_replica_lag_seconds{replica="replica1"}`]; !ok {
		t.Error("no replica lag series")
	}
	if _, ok := after[`dankyu_certificates_issued_total`]; !ok {
		t.Error("no certificates issued series")
	}

	// the standby crashes: out of rotation, public pages still answer, and
	// the server starts it again
	if err := mustCluster(t, filepath.Join(dataDir, "replica1")).Kill(context.Background()); err != nil {
		t.Fatal(err)
	}
	sawOut := false
	deadline = time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get("http://" + srv.HTTP + "/notices")
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("/notices with the standby down: %v %v", resp, err)
		}
		resp.Body.Close()
		in := scrape(t, url)[`dankyu_replica_in_rotation{replica="replica1"}`]
		sawOut = sawOut || in == 0
		if sawOut && in == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("standby not back in rotation (seen out: %v):\n%s", sawOut, srv.Log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
